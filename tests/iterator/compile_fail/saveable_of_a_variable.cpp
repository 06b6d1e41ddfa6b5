// make_saveable_from_iterator of a variable, not an iterator: compile error naming it.
#include <typeflow/data/iterator.hpp>
#include <typeflow/train/saver.hpp>
#include <typeflow/typeflow.hpp>

namespace tf = typeflow;

int main() {
  auto weights = tf::variable<"weights", float, tf::shape<2>>(tf::init::zeros());
  tf::train::saver saver(tf::data::make_saveable_from_iterator(weights), weights);
  (void)saver;
  return 0;
}
