// typeflow/debug/graph_export.hpp — a graph, or a run's computation path, described as data
// (graph_description, with TensorFlow's automatic names: graph/naming.hpp), to print as
// text or Graphviz DOT.
#pragma once

#include <boost/mp11/list.hpp>

#include "typeflow/core/node.hpp"
#include "typeflow/graph/naming.hpp"
#include "typeflow/graph/traverse.hpp"
#include "typeflow/session/feed.hpp"

namespace typeflow {

/// Every node reachable from the roots (inputs and written variables).
template <node... Roots>
graph_description describe_graph(Roots...) {
  return graph::describe<graph::graph_order<Roots...>>();
}

/// The computation path of a run fetching `fetch` with these feeds: what run() evaluates.
/// Automatic names are numbered within the path.
template <class Fetch, class... Feeds>
graph_description describe_path(Fetch, const Feeds&...) {
  using fetches = typename session_detail::fetches_of<Fetch>::type;
  using fed = mp::mp_list<typename Feeds::node_type...>;
  return graph::describe<graph::path_order<fetches, fed>>();
}

}  // namespace typeflow
