#pragma once
// Run and option functions of each problem, one file src/cli/<name>.cpp each.
#include "cli/cli.hpp"

namespace pcount::cli {
void add_latin_options(po::options_description& d);
int run_latin(const Invocation& inv);
void add_sudoku_options(po::options_description& d);
int run_sudoku(const Invocation& inv);
void add_queens_options(po::options_description& d);
int run_queens(const Invocation& inv);
void add_puzzle_options(po::options_description& d);
int run_puzzle(const Invocation& inv);
int run_puzzle_file(const Invocation& inv);
void add_codes_options(po::options_description& d);
int run_bulls_and_cows(const Invocation& inv);
int run_mastermind(const Invocation& inv);
void add_kirkman_options(po::options_description& d);
int run_kirkman(const Invocation& inv);
void add_tictactoe_options(po::options_description& d);
int run_tictactoe(const Invocation& inv);
}  // namespace pcount::cli
