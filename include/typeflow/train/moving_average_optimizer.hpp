// typeflow/train/moving_average_optimizer.hpp — tf.contrib.opt.MovingAverageOptimizer: an
// optimizer that keeps moving averages of the variables it updates, and a saver that swaps
// them with the variables.
//
//   auto opt = train::moving_average_optimizer(train::gradient_descent(2.0), 0.5);
//   auto train_op = opt.minimize(loss);        // the update, then the averages, in order
//   tf::session sess(train_op);
//   auto saver = opt.swapping_saver(sess);     // checkpoints hold the averages under "w"
//
// A checkpoint written by the swapping saver holds each averaged variable's average under
// the variable's name and the variable's value under the average's name, so a plain saver
// (an evaluation program) restores the averages into the variables, and the swapping saver
// restores both as they were.
#pragma once

#include <string>
#include <tuple>
#include <type_traits>

#include <boost/mp11/algorithm.hpp>
#include <boost/mp11/bind.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/ops/state.hpp"
#include "typeflow/train/moving_average.hpp"
#include "typeflow/train/optimizer.hpp"
#include "typeflow/train/saver.hpp"

namespace typeflow::train {

/// In a diagnostic: a swapping saver's var_list holds a variable without its average (or an
/// average without its variable): saving one would break MovingAverageOptimizer's swap.
template <fixed_string Variable>
struct variable_to_swap_is_not_part_of_the_variables_to_save {
  static constexpr bool value = false;
};

namespace detail {
// The swapping saver's entries for variable W of a session whose averages (shadows of the
// moving average Name) are Shadows: an averaged variable and its average swap keys.
template <fixed_string Name, class Averaged, class W>
struct swap_entry {
  using type = saved_as_t<W::name, W>;
};
template <fixed_string Name, class Averaged, class W>
  requires(contains_v<Averaged, W>)
struct swap_entry<Name, Averaged, W> {
  using type = saved_as_t<W::name, ema_shadow_node<Name, W>>;  // "w" holds w's average
};
template <fixed_string Name, class Averaged, class V>
  requires(contains_v<Averaged, V>)
struct swap_entry<Name, Averaged, ema_shadow_node<Name, V>> {
  using type = saved_as_t<ema_shadow_node<Name, V>::name, V>;  // "w/<Name>" holds w
};

template <class V>
struct averaged_of_shadow {
  using type = typename V::averaged_variable;
};

template <fixed_string Name, class Averaged, class... W>
constexpr auto swap_entries(mp::mp_list<W...>) {
  return saver_var_map<typename swap_entry<Name, Averaged, W>::type...>{};
}

// A var_list entry whose partner (the average of a variable, the variable of an average)
// is missing from the list.
template <fixed_string Name, class Averaged, class List, class W>
constexpr bool partner_missing() {
  if constexpr (contains_v<Averaged, W>) {
    return !contains_v<List, ema_shadow_node<Name, W>>;
  } else if constexpr (is_shadow_of<Name, W>::value) {
    return contains_v<Averaged, typename W::averaged_variable> && !contains_v<List, typename W::averaged_variable>;
  } else {
    return false;
  }
}
}  // namespace detail

/// tf.contrib.opt.MovingAverageOptimizer over the optimizer Opt: its updates, then the
/// moving average EmaName of the variables it updated (sequential_update, TensorFlow's
/// default: typeflow runs a group's inputs in order).
template <class Opt, class Ema>
class moving_average_optimizer_t {
 public:
  static constexpr auto average_name = Ema::name;

  constexpr moving_average_optimizer_t(const Opt& opt, const Ema& ema) : opt_(opt), ema_(ema) {}

  /// The wrapped optimizer and the moving average.
  const Opt& optimizer() const noexcept { return opt_; }
  const Ema& moving_average() const noexcept { return ema_; }

  template <class... A>
  constexpr auto compute_gradients(const A&... a) const {
    return opt_.compute_gradients(a...);
  }

  /// The wrapped optimizer's update node, then the averages' (tf.group of both, in order).
  template <class... G, class... V, class... Step>
  auto apply_gradients(const std::tuple<grad_and_var_t<G, V>...>& pairs, const Step&... step) {
    applied_ = true;
    auto update = opt_.apply_gradients(pairs, step...);
    auto averages = std::apply([&](const auto&... p) { return ema_.apply(p.variable_node...); }, pairs);
    return group(update, averages);
  }
  template <class... G, class... V>
  auto apply_gradients(const grad_and_var_t<G, V>&... pairs) {
    return apply_gradients(std::tuple<grad_and_var_t<G, V>...>{pairs...});
  }

  /// compute_gradients + apply_gradients, as Optimizer.minimize (var_list and global_step too).
  template <node Loss>
  auto minimize(const Loss& loss) {
    return apply_gradients(opt_.compute_gradients(loss));
  }
  template <node Loss, class... V>
  auto minimize(const Loss& loss, const var_list_t<V...>& vars) {
    return apply_gradients(opt_.compute_gradients(loss, vars));
  }
  template <node Loss>
  auto minimize(const Loss& loss, const global_step_node& gs) {
    return apply_gradients(opt_.compute_gradients(loss), gs);
  }
  template <node Loss, class... V>
  auto minimize(const Loss& loss, const var_list_t<V...>& vars, const global_step_node& gs) {
    return apply_gradients(opt_.compute_gradients(loss, vars), gs);
  }

  /// A saver over the session's variables that swaps each averaged variable with its average:
  /// "w" holds w's average, "w/<average>" holds w (MovingAverageOptimizer.swapping_saver).
  /// Throws FailedPrecondition before apply_gradients or minimize has built the averages.
  template <class Session>
  auto swapping_saver(const Session& sess, saver_options options = {}) const {
    using vars = typename Session::variables;
    return make_saver(sess, vars{}, std::move(options));
  }
  /// The same over var_list only: a variable and its average must both be in it (else
  /// a compile error naming the variable, as TensorFlow's "Variable to swap ... is not part
  /// of variables to save").
  template <class Session, class... V>
  auto swapping_saver(const Session& sess, const var_list_t<V...>&, saver_options options = {}) const {
    return make_saver(sess, mp::mp_list<V...>{}, std::move(options));
  }

 private:
  template <class Session, class... W>
  auto make_saver(const Session&, mp::mp_list<W...> list, saver_options options) const {
    using shadows = mp::mp_copy_if_q<typename Session::variables, detail::variable_shadow_of_q<Ema::name>>;
    using averaged = mp::mp_transform_q<mp::mp_quote_trait<detail::averaged_of_shadow>, shadows>;
    if (!applied_)
      throw failed_precondition_error(
          "Must call apply_gradients or minimize before creating the swapping_saver()");
    constexpr bool complete = !(detail::partner_missing<Ema::name, averaged, mp::mp_list<W...>, W>() || ...);
    if constexpr (!complete) {
      using culprit = mp::mp_front<mp::mp_copy_if_q<
          mp::mp_list<W...>, mp::mp_bind_front<partner_missing_q, averaged, mp::mp_list<W...>>>>;
      static_assert(variable_to_swap_is_not_part_of_the_variables_to_save<culprit::name>::value,
                    "opt.swapping_saver(sess, var_list(...)): a variable and its moving average must both be "
                    "in var_list (swapping one alone breaks MovingAverageOptimizer)");
    }
    using map = decltype(detail::swap_entries<Ema::name, averaged>(list));
    return saver<detail::entries_t<map>>(std::move(options), map{});
  }
  template <class Averaged, class List, class W>
  using partner_missing_q = std::bool_constant<detail::partner_missing<Ema::name, Averaged, List, W>()>;

  Opt opt_;
  Ema ema_;
  bool applied_ = false;
};

/// `moving_average_optimizer(opt, average_decay = 0.9999)`: tf.contrib.opt's
/// MovingAverageOptimizer(opt, average_decay, num_updates); the averages are named
/// "<v>/ExponentialMovingAverage" (or `moving_average_optimizer<"name">(...)`).
template <fixed_string EmaName = "ExponentialMovingAverage", class Opt, class D = double>
auto moving_average_optimizer(const Opt& opt, const D& average_decay = 0.9999) {
  auto ema = exponential_moving_average<EmaName>(average_decay);
  return moving_average_optimizer_t<Opt, decltype(ema)>(opt, ema);
}
template <fixed_string EmaName = "ExponentialMovingAverage", class Opt, class D, node NumUpdates>
auto moving_average_optimizer(const Opt& opt, const D& average_decay, const NumUpdates& num_updates) {
  auto ema = exponential_moving_average<EmaName>(average_decay, num_updates);
  return moving_average_optimizer_t<Opt, decltype(ema)>(opt, ema);
}

}  // namespace typeflow::train
