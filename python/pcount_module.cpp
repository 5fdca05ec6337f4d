// pcount._pcount: the native part of the Python module pcount (python/pcount/).
// The one file that uses pybind11. It runs `count` in this process —
// driver::main with count's problem table, the code path of the command
// line — and hands back its exit status, stdout and stderr; everything else
// (keyword arguments, JSON, exceptions) is in python/pcount/__init__.py.
#include <pybind11/functional.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <functional>
#include <iostream>
#include <optional>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <string>
#include <vector>

#include "cli/problems.hpp"
#include "pcount/driver/program.hpp"

namespace py = pybind11;

namespace {

/// A stream buffer that hands each line written to it to a Python callable
/// (under the GIL). When the callable raises, the buffer fails the write,
/// which stops a listing run (its printer throws on a failed stream).
class LineSink : public std::streambuf {
public:
  explicit LineSink(py::function sink) : sink_(std::move(sink)) {}

protected:
  int_type overflow(int_type ch) override {
    if (failed_) return traits_type::eof();
    if (ch == traits_type::eof()) return traits_type::not_eof(ch);
    line_ += traits_type::to_char_type(ch);
    if (ch == '\n' && !hand_over()) return traits_type::eof();
    return ch;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    for (std::streamsize i = 0; i < n; ++i)
      if (overflow(traits_type::to_int_type(s[i])) == traits_type::eof()) return i;
    return n;
  }

private:
  bool hand_over() {
    py::gil_scoped_acquire gil;
    try {
      sink_(py::bytes(line_));
    } catch (py::error_already_set&) {
      failed_ = true;  // the consumer stopped (a generator closed): the run ends
    }
    line_.clear();
    return !failed_;
  }

  py::function sink_;
  std::string line_;
  bool failed_ = false;
};

/// A stream buffer that writes to two others (count's stderr kept for the
/// exception and shown on the process's stderr as it is written).
class TeeBuffer : public std::streambuf {
public:
  TeeBuffer(std::streambuf* first, std::streambuf* second) : first_(first), second_(second) {}

protected:
  int_type overflow(int_type ch) override {
    if (ch == traits_type::eof()) return traits_type::not_eof(ch);
    const bool kept = first_->sputc(traits_type::to_char_type(ch)) != traits_type::eof();
    second_->sputc(traits_type::to_char_type(ch));
    return kept ? ch : traits_type::eof();
  }
  int sync() override {
    second_->pubsync();
    return 0;
  }

private:
  std::streambuf* first_;
  std::streambuf* second_;
};

/// count's program, with `progress` (a Python callable) called under the
/// GIL as progress(done, total) while a run goes on. An exception it raises
/// is reported as unraisable (sys.unraisablehook); the run goes on. The
/// driver copies the hook without the GIL, so it holds a pointer to the
/// callable, which must outlive the run, not a reference count.
pcount::driver::Program program_with(const py::function& progress) {
  pcount::driver::Program program = pcount::cli::count_program();
  program.progress = [callback = &progress](std::size_t done, std::size_t total) {
    py::gil_scoped_acquire gil;
    try {
      (*callback)(done, total);
    } catch (py::error_already_set& e) {
      e.discard_as_unraisable("pcount progress callback");
    }
  };
  return program;
}

/// Runs `count ARGS` (or `count merge ARGS`) with the GIL released. With
/// `sink`, each line of stdout goes to sink(bytes) as it is written (a
/// listing) instead of being returned; with `progress`, progress(done,
/// total) is called about every 250 ms; with `echo`, stderr is also written
/// to the process's stderr as the run goes (the progress line). Returns
/// (status, stdout, stderr).
py::tuple run(const std::vector<std::string>& args, const std::optional<py::function>& sink,
              const std::optional<py::function>& progress, bool echo) {
  std::vector<const char*> argv{"count"};
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::ostringstream out_text;
  std::ostringstream err_text;
  TeeBuffer tee(err_text.rdbuf(), std::cerr.rdbuf());
  std::ostream err_echo(&tee);
  std::ostream& err = echo ? err_echo : static_cast<std::ostream&>(err_text);
  std::unique_ptr<LineSink> lines;
  if (sink) lines = std::make_unique<LineSink>(*sink);
  std::ostream line_out(lines.get());
  std::ostream& out = lines ? line_out : static_cast<std::ostream&>(out_text);
  std::optional<pcount::driver::Program> program;
  if (progress) program = program_with(*progress);
  int status = 0;
  {
    py::gil_scoped_release nogil;
    status = pcount::driver::main(static_cast<int>(argv.size()), argv.data(),
                                  program ? *program : pcount::cli::count_program(), out, err);
  }
  lines.reset();  // drops its reference to the callable while the GIL is held
  // A Ctrl-C that came before or after the driver's own handler was installed.
  if (PyErr_CheckSignals() != 0) throw py::error_already_set();
  return py::make_tuple(status, py::bytes(out_text.str()), py::bytes(err_text.str()));
}

/// The problems of `count`: (option, value name, help, lists) each, from
/// the same table as `count --help`.
py::list problems() {
  py::list list;
  for (const pcount::driver::Problem& p : pcount::cli::count_program().problems)
    list.append(py::make_tuple(std::string(p.option), std::string(p.value_name), std::string(p.help), p.lists));
  return list;
}

}  // namespace

PYBIND11_MODULE(_pcount, m) {
  m.doc() = "pcount's engine and driver, as `count` runs them (use the package pcount)";
  m.def("run", &run, py::arg("args"), py::arg("sink") = py::none(), py::arg("progress") = py::none(),
        py::arg("echo") = false, "Runs `count ARGS` in this process; returns (status, stdout bytes, stderr bytes)");
  m.def("problems", &problems, "The problems of count: (option, value name, help, lists) each");
  m.attr("version") = std::string(pcount::driver::version());
}
