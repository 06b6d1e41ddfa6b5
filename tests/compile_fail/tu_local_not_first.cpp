// <typeflow/tu_local.hpp> after another typeflow header: the mistake is the order.
#include <typeflow/typeflow.hpp>
#include <typeflow/tu_local.hpp>  // the mistake: it must come first

int main() { return 0; }
