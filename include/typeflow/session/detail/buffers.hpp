// typeflow/session/detail/buffers.hpp — the buffers of a run: one per materialized
// node of the path, grouped by type, planned once per (fetch, feed) combination and kept
// by the session across runs (plan_pools), so that a steady-state run allocates nothing.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <mutex>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/node.hpp"
#include "typeflow/session/fetch.hpp"

namespace typeflow::session_detail {

// Buffer of a materialized node: its value for elementwise and compute ops, its own
// output for effects that have one.
//
// (buffer_storage_t, core/shape.hpp: capacity kept across runs of smaller shapes.)
template <class N>
struct buffer_impl {
  using type = buffer_storage_t<value_type_of<N>, shape_of<N>>;
};
template <class N>
  requires(N::kind == node_kind::effect)
struct buffer_impl<N> {
  using type = typename effect_output<N>::type;
};
template <class N>
using buffer_t = typename buffer_impl<N>::type;

inline std::size_t next_plan_id() {
  static std::atomic<std::size_t> next{0};
  return next++;
}
template <class Plan>
inline const std::size_t plan_id = next_plan_id();

/// The buffers of a session's plans, by plan id: the one place a session keeps them.
///
/// A run through a non-const session uses the plan's own set (made the first time): such
/// a run never overlaps another call on the session, and the steady state takes no lock.
/// Runs through a const session may be in flight at once, one set each: a run takes a set
/// from the plan's pool (making one when none is free) and gives it back when its lease
/// ends. Either way a steady state allocates nothing.
class plan_pools {
 public:
  plan_pools() = default;
  plan_pools(const plan_pools&) = delete;
  plan_pools& operator=(const plan_pools&) = delete;
  ~plan_pools() {
    for (auto& pool : pools_) {
      if (pool.own) pool.destroy(pool.own);
      for (void* p : pool.all) pool.destroy(p);
    }
  }

  /// The set of buffers of type Buffers that runs of plan `id` through a non-const
  /// session use, made the first time.
  template <class Buffers>
  Buffers& own(std::size_t id) {
    if (id < pools_.size() && pools_[id].own) [[likely]]
      return *static_cast<Buffers*>(pools_[id].own);
    return make_own<Buffers>(id);
  }

  /// A set of buffers of type Buffers for the plan `id`, given back when the lease ends.
  template <class Buffers>
  class lease {
   public:
    lease(plan_pools& pools, std::size_t id) : pools_(pools), id_(id), p_(pools.take<Buffers>(id)) {}
    lease(const lease&) = delete;
    lease& operator=(const lease&) = delete;
    ~lease() { pools_.give_back(id_, p_); }
    Buffers& get() const noexcept { return *p_; }

   private:
    plan_pools& pools_;
    std::size_t id_;
    Buffers* p_;
  };

 private:
  struct pool {
    void* own = nullptr;      // the set of runs through a non-const session
    std::vector<void*> all;   // the sets of runs through a const session
    std::vector<void*> free;  // capacity kept at all.size(): giving back never allocates
    void (*destroy)(void*) = nullptr;
  };

  template <class Buffers>
  [[gnu::noinline]] Buffers& make_own(std::size_t id) {
    std::lock_guard lock(mutex_);
    if (id >= pools_.size()) pools_.resize(id + 1);
    auto& pool = pools_[id];
    pool.destroy = [](void* p) { delete static_cast<Buffers*>(p); };
    auto* made = new Buffers();
    pool.own = made;
    return *made;
  }

  template <class Buffers>
  Buffers* take(std::size_t id) {
    {
      std::lock_guard lock(mutex_);
      if (id < pools_.size() && !pools_[id].free.empty()) {
        void* p = pools_[id].free.back();
        pools_[id].free.pop_back();
        return static_cast<Buffers*>(p);
      }
    }
    std::lock_guard lock(mutex_);
    if (id >= pools_.size()) pools_.resize(id + 1);
    auto& pool = pools_[id];
    pool.destroy = [](void* p) { delete static_cast<Buffers*>(p); };
    pool.all.reserve(pool.all.size() + 1);
    pool.free.reserve(pool.all.size() + 1);
    // Room is made first: once the buffers exist, nothing can throw before they are held.
    auto* made = new Buffers();
    pool.all.push_back(made);
    return made;
  }
  void give_back(std::size_t id, void* p) noexcept {
    std::lock_guard lock(mutex_);
    pools_[id].free.push_back(p);
  }

  std::mutex mutex_;
  std::vector<pool> pools_;
};

// The distinct types of a list, by a fold of `|` over a set that stays short (the few
// buffer types of a plan): mp_unique carries the rest of the list at each step (as
// graph::detail::select, traverse.hpp).
struct skip_buffer {};  // not a buffer: a node fused into its consumer
template <class... S>
struct type_set {};
template <class T>
struct type_add {};
template <class... S, class T>
auto operator|(type_set<S...>, type_add<T>)
    -> mp::mp_if_c<(__is_same(S, T) || ... || __is_same(T, skip_buffer)), type_set<S...>, type_set<S..., T>>;
template <class L>
struct distinct_types;
template <class... T>
struct distinct_types<mp::mp_list<T...>> {
  using type = mp::mp_rename<decltype((type_set<>{} | ... | type_add<T>{})), mp::mp_list>;
};

/// Buffers of one type, a run's group G of them.
template <std::size_t G, class T, std::size_t Count>
struct buffer_group {
  std::array<T, Count> items{};
};
template <class L>
struct buffer_set;
template <class... B>
struct buffer_set<mp::mp_list<B...>> : B... {};
template <std::size_t G, class T, std::size_t Count>
std::array<T, Count>& group_items(buffer_group<G, T, Count>& b) noexcept {
  return b.items;
}


}  // namespace typeflow::session_detail
