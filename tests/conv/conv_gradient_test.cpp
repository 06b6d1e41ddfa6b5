#include "../autodiff/fd_check.hpp"
