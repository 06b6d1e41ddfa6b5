// A saver over an iterator that the session does not hold: compile error naming the iterator.
// (the saver first: the diagnostic's include chain is then one line)
#include <typeflow/train/saver.hpp>
#include <typeflow/data/graph_dataset.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto features = tf::placeholder<"features", float, tf::shape<tf::dyn, 4>>();
  auto it = tf::data::make_initializable_iterator<"lost">(tf::data::from_tensor_slices(features).batch<8>());
  auto weights = tf::variable<"weights", float, tf::shape<2>>(tf::init::zeros());
  tf::session sess(weights);
  tf::train::saver saver(tf::data::make_saveable_from_iterator(it), weights);
  saver.save(sess, "model.ckpt");
  return 0;
}
