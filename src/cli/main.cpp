#include <iostream>

#include "cli/cli.hpp"

int main(int argc, char** argv) { return pcount::cli::main(argc, argv, std::cout, std::cerr); }
