// Compile-fail: top_k<-7> (topk_op_test.py testKNegative, "Need k >= 0, got -7" when
// TensorFlow runs it). The diagnostic names k: top_k_k_must_not_be_negative<-7>.
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto inputs = tf::placeholder<"inputs", float, tf::shape<2, 2>>();
  auto [values, indices] = tf::top_k<-7>(inputs);  // the mistake
  tf::session sess(values, indices);
  return 0;
}
