// tests/rnn/seq2seq_testing.hpp — what the seq2seq decoder tests share: a cell that projects
// its inner cell's output (TensorFlow's OutputProjectionWrapper, which seq2seq_test.py wraps
// around its GRUCells; test-only here), the session's variables as (name, shape) pairs, and
// setting every variable to one value (TensorFlow's constant_initializer(0.5) on "root").
#pragma once

#include <cstddef>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <boost/mp11/list.hpp>

#include <typeflow/rnn/cell.hpp>
#include <typeflow/typeflow.hpp>

namespace seq2seq_testing {

namespace tf = typeflow;

/// core_rnn_cell.OutputProjectionWrapper(cell, N): the inner cell under
/// "<scope>/output_projection_wrapper/", its output mapped by _linear to N columns
/// ("<scope>/output_projection_wrapper/kernel", ".../bias").
template <class Cell, std::size_t N>
struct output_projection_wrapper {
  static constexpr tf::fixed_string name = "output_projection_wrapper";
  static constexpr std::size_t output_size = N;
  static constexpr auto state_sizes = Cell::state_sizes;

  template <tf::fixed_string Scope, tf::node X, class... S>
  auto step(const X& x, const std::tuple<S...>& state) const {
    constexpr auto scope = tf::join_names<Scope, name>();
    auto [out, new_state] = Cell{}.template step<scope>(x, state);
    using T = tf::value_type_of<X>;
    auto kernel = tf::variable<tf::join_names<scope, "kernel">(), T, tf::shape<std::ptrdiff_t(Cell::output_size), std::ptrdiff_t(N)>,
                               tf::init::glorot_uniform()>();
    auto bias = tf::variable<tf::join_names<scope, "bias">(), T, tf::shape<std::ptrdiff_t(N)>, tf::init::zeros()>();
    return std::pair{tf::matmul(out, kernel) + bias, new_state};
  }
  template <class... S>
  static constexpr auto unflatten(const std::tuple<S...>& flat) {
    return Cell::unflatten(flat);
  }
  template <tf::node X>
  static constexpr auto zero_flat_state(const X& x) {
    return Cell::zero_flat_state(x);
  }
};

/// name -> shape of every variable the session holds.
template <class Sess>
std::map<std::string, std::vector<std::ptrdiff_t>> variable_shapes() {
  std::map<std::string, std::vector<std::ptrdiff_t>> out;
  [&]<class... V>(boost::mp11::mp_list<V...>) {
    ((out[std::string(V::name.view())] =
          std::vector<std::ptrdiff_t>(tf::shape_of<V>::dims.begin(), tf::shape_of<V>::dims.end())),
     ...);
  }(typename Sess::variables{});
  return out;
}

/// Every variable of the session set to value (and initialized).
template <class Sess>
void set_all_variables(Sess& sess, double value) {
  [&]<class... V>(boost::mp11::mp_list<V...>) {
    auto set = [&]<class W>(std::type_identity<W>) {
      auto& slot = sess.template slot<W>();
      for (std::size_t k = 0; k < slot.value.size(); ++k) slot.value.flat(k) = value;
      slot.initialized = true;
    };
    (set(std::type_identity<V>{}), ...);
  }(typename Sess::variables{});
}

}  // namespace seq2seq_testing
