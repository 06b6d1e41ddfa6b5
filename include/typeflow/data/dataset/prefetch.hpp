// typeflow/data/dataset/prefetch.hpp — Dataset.prefetch: a background thread keeps up to
// buffer_size elements ready.
//
// The iterator owns buffer_size slots, made once. Its thread (started by the first next())
// fills the free slots from the input; next(out) hands a filled slot over by swapping it
// with `out`, so that `out`'s storage goes back to the thread for a later element: no copy,
// and no allocation once the slots have grown. An exception thrown by the input is
// rethrown by the next() that reaches it, after the elements before it; that next() ends
// the iterator. Destroying the iterator mid-pass stops the thread and joins it.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "typeflow/data/dataset/base.hpp"
#include "typeflow/data/dataset/state.hpp"

namespace typeflow::data {

template <class D>
class prefetch_dataset : public dataset_base<prefetch_dataset<D>> {
 public:
  using element_type = typename D::element_type;

  prefetch_dataset(D input, std::int64_t buffer_size) : input_(std::move(input)), n_(buffer_size) {
    detail::check_positive(buffer_size, "buffer_size");
  }

  class iterator : public iterator_base<iterator> {
    // What the thread shares with the consumer; on the heap, so the iterator can move.
    struct shared {
      shared(typename D::iterator in, std::size_t n) : in(std::move(in)), slots(n) {}
      ~shared() {
        {
          std::lock_guard lock(m);
          stop = true;
        }
        to_producer.notify_all();
        if (worker.joinable()) worker.join();
      }
      void produce() {
        std::unique_lock lock(m);
        for (;;) {
          to_producer.wait(lock, [&] { return stop || (!pause && !end && !error && count < slots.size()); });
          if (stop) return;
          const std::size_t slot = (head + count) % slots.size();
          busy = true;
          lock.unlock();
          bool ok = false;
          std::exception_ptr failure;
          try {
            ok = in.next(slots[slot]);
          } catch (...) {
            failure = std::current_exception();
          }
          lock.lock();
          busy = false;
          if (failure)
            error = failure;
          else if (ok)
            ++count;
          else
            end = true;
          to_consumer.notify_all();
        }
      }
      typename D::iterator in;            // the thread's, while it runs and is not paused
      std::vector<element_type> slots;    // [head, head + count) are filled, circularly
      std::size_t head = 0, count = 0;
      bool end = false, stop = false, pause = false, busy = false;
      std::exception_ptr error;
      std::mutex m;
      std::condition_variable to_producer, to_consumer;
      std::thread worker;  // last: joined by the destructor before the rest goes
    };

   public:
    iterator(prefetch_dataset ds, iteration pass)
        : ds_(std::move(ds)), pass_(pass),
          s_(std::make_unique<shared>(ds_.input_.make_iterator(pass), static_cast<std::size_t>(ds_.n_))) {}

    bool next(element_type& out) {
      shared& s = *s_;
      std::unique_lock lock(s.m);
      if (!s.worker.joinable() && !s.end) s.worker = std::thread([p = &s] { p->produce(); });
      s.to_consumer.wait(lock, [&] { return s.count > 0 || s.end || s.error; });
      if (s.count > 0) {
        std::swap(out, s.slots[s.head]);
        s.head = (s.head + 1) % s.slots.size();
        --s.count;
        lock.unlock();
        s.to_producer.notify_one();
        return true;
      }
      if (s.error) {
        std::exception_ptr e = std::exchange(s.error, nullptr);
        s.end = true;
        std::rethrow_exception(e);
      }
      return false;
    }
    /// Pauses the thread between two elements while it writes the input's position and
    /// the elements ready in the slots.
    void save_to(iterator_state& st, const std::string& p) const {
      shared& s = *s_;
      const std::string q = detail::join(p, "prefetch");
      std::unique_lock lock(s.m);
      s.pause = true;
      s.to_consumer.wait(lock, [&] { return !s.busy; });  // the thread notifies when it leaves next()
      struct ready_view {
        const shared& s;
        const element_type& operator[](std::size_t i) const { return s.slots[(s.head + i) % s.slots.size()]; }
      };
      try {
        detail::put_int64(st, q + "/end", s.end || s.error ? 1 : 0);
        detail::put_elements<element_type>(st, q + "/buffer", ready_view{s}, s.count);
        s.in.save_to(st, q);
      } catch (...) {
        s.pause = false;
        s.to_producer.notify_all();
        throw;
      }
      s.pause = false;
      lock.unlock();
      s.to_producer.notify_all();
    }
    void load_from(const iterator_state& st, const std::string& p) {
      shared& s = *s_;  // a fresh iterator: no thread yet
      const std::string q = detail::join(p, "prefetch");
      s.end = detail::get_int64_in(st, q + "/end", 0, 1) == 1;
      auto ready = detail::get_elements<element_type>(st, q + "/buffer", ds_.n_);
      s.in.load_from(st, q);
      for (std::size_t i = 0; i < ready.size(); ++i) s.slots[i] = std::move(ready[i]);
      s.head = 0;
      s.count = ready.size();
    }
    const prefetch_dataset& dataset() const { return ds_; }
    iteration pass() const { return pass_; }

   private:
    prefetch_dataset ds_;
    iteration pass_;
    std::unique_ptr<shared> s_;
  };

  iterator make_iterator(iteration pass = {}) const { return iterator(*this, pass); }

 private:
  D input_;
  std::int64_t n_;
};

}  // namespace typeflow::data
