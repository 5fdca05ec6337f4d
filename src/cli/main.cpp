#include <iostream>

#include "cli/problems.hpp"

int main(int argc, char** argv) {
  return pcount::driver::main(argc, argv, pcount::cli::count_program(), std::cout, std::cerr);
}
