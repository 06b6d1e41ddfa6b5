// Compile-fail: embedding_lookup with float ids. The diagnostic names the element type:
// embedding_ids_must_be_int32_or_int64<float>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto table = tf::variable<"table", float, tf::shape<10, 4>>();
  auto ids = tf::placeholder<"ids", float, tf::shape<2>>();
  auto rows = tf::embedding_lookup(table, ids);  // the mistake
  tf::session sess(rows);
  return 0;
}
