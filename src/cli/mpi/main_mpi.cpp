// count-mpi: the `count` program across MPI ranks (docs/hpc.md).
//
// Every rank parses the same command and builds the same task list; tasks are
// handed out dynamically through an MPI-3 one-sided atomic counter on rank 0
// (MPI_Fetch_and_op on a window from MPI_Win_allocate), each rank runs its
// tasks on oneTBB threads, and the 128-bit counts are summed with a custom
// MPI_Op over (low, high) 64-bit halves with carry. Only rank 0 prints. A rank
// that fails alone calls MPI_Abort, so no rank waits forever: a task that
// throws aborts at once (run_job); any other error on one rank is seen at the
// end (a non-blocking barrier that does not complete within 20 s).

#include <mpi.h>

#include <chrono>
#include <cstdint>
#include <cstring>
#include <iostream>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <streambuf>
#include <thread>
#include <vector>

#include "cli/problems.hpp"
#include "pcount/engine/checkpoint.hpp"
#include "pcount/u128.hpp"

namespace pcount::cli {
namespace {

using driver::Distributed;

/// One reduced 128-bit value as words: low, high, then an overflow flag. A
/// tally of k counters is reduced as k + 1 such values (the counters, then
/// the nodes), so any number of counters goes through one MPI_Allreduce.
constexpr int kValueWords = 3;

/// MPI_Op: element-wise 128-bit addition of values, carry from the low to the
/// high word; a carry out of the high word sets the element's overflow flag.
extern "C" void add_values(void* in, void* inout, int* len, MPI_Datatype*) {
  const auto* a = static_cast<const std::uint64_t*>(in);
  auto* b = static_cast<std::uint64_t*>(inout);
  for (int t = 0; t < *len; ++t, a += kValueWords, b += kValueWords) {
    const u128 x = join64(a[0], a[1]);
    const u128 y = join64(b[0], b[1]);
    u128 sum = 0;
    if (__builtin_add_overflow(x, y, &sum)) b[2] = 1;
    b[0] = low64(sum);
    b[1] = high64(sum);
    b[2] |= a[2];
  }
}

/// A stream buffer that discards everything (the output of ranks > 0).
class NullBuffer : public std::streambuf {
protected:
  int overflow(int c) override { return traits_type::not_eof(c); }
  std::streamsize xsputn(const char*, std::streamsize n) override { return n; }
};

class MpiDistributed final : public Distributed {
public:
  MpiDistributed() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Type_contiguous(kValueWords, MPI_UINT64_T, &value_type_);
    MPI_Type_commit(&value_type_);
    MPI_Op_create(&add_values, 1, &add_op_);
  }
  ~MpiDistributed() override {
    end_window();
    MPI_Op_free(&add_op_);
    MPI_Type_free(&value_type_);
  }

  [[nodiscard]] int rank() const override { return rank_; }
  [[nodiscard]] int size() const override { return size_; }

  void begin(const std::string& fingerprint, std::size_t slots) override {
    // Every rank must run the same job: compare a hash of fingerprint + size.
    std::uint64_t mine[2];
    mine[0] = engine::fnv1a(fingerprint + "#" + std::to_string(slots));
    mine[1] = ~mine[0];
    std::uint64_t extreme[2];
    MPI_Allreduce(mine, extreme, 2, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    if (extreme[0] != mine[0] || extreme[1] != mine[1])
      abort("the ranks built different jobs (this rank: '" + fingerprint + "'); give every rank the same command", 1);
    end_window();
    std::uint64_t* base = nullptr;
    MPI_Win_allocate(rank_ == 0 ? static_cast<MPI_Aint>(sizeof(std::uint64_t)) : 0,
                     static_cast<int>(sizeof(std::uint64_t)), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &window_);
    if (rank_ == 0) *base = 0;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Win_lock_all(0, window_);
    open_ = true;
  }

  std::size_t claim() override { return static_cast<std::size_t>(fetch_add(1)); }
  std::size_t claimed() override { return static_cast<std::size_t>(fetch_add(0)); }

  void reduce(engine::RunResult& result, std::size_t counters) override {
    end_window();
    engine::Tally& local = result.totals;
    // The largest task's nodes on this rank, before the nodes are summed.
    const double largest = result.largest_task_share * static_cast<double>(local.nodes);
    if (local.counts.size() > counters) throw std::logic_error("MPI reduce: a tally has more counters than the job");
    // Every rank must pass the same number of counters (the same job).
    const std::uint64_t n = counters;
    std::uint64_t extreme[2] = {0, 0};
    const std::uint64_t mine_n[2] = {n, ~n};
    MPI_Allreduce(mine_n, extreme, 2, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
    if (extreme[0] != n || extreme[1] != ~n) abort("the ranks' jobs have different numbers of counters", 1);
    const std::size_t values = counters + 1;  // the counters, then the nodes
    std::vector<std::uint64_t> mine(kValueWords * values, 0);
    std::vector<std::uint64_t> sum(kValueWords * values, 0);
    for (std::size_t i = 0; i < values; ++i) {
      const u128 v = i < counters ? local.get(i) : local.nodes;
      mine[kValueWords * i] = low64(v);
      mine[kValueWords * i + 1] = high64(v);
    }
    MPI_Allreduce(mine.data(), sum.data(), static_cast<int>(values), value_type_, add_op_, MPI_COMM_WORLD);
    for (std::size_t i = 0; i < values; ++i)
      if (sum[kValueWords * i + 2]) throw CountOverflow("128-bit count overflow in the MPI reduction");
    local = engine::Tally(counters);
    for (std::size_t i = 0; i < counters; ++i) local.counts[i] = join64(sum[kValueWords * i], sum[kValueWords * i + 1]);
    local.nodes = join64(sum[kValueWords * counters], sum[kValueWords * counters + 1]);
    reduce_figures(result, largest);
  }

  void gather(std::vector<engine::TaskRecord>& tasks, std::size_t counters) override {
    // Each record as words: id, seconds (bits), nodes low/high, schedule
    // position, counts low/high.
    const std::size_t words = 5 + 2 * counters;
    std::vector<std::uint64_t> mine;
    mine.reserve(tasks.size() * words);
    for (const auto& t : tasks) {
      std::uint64_t secs = 0;
      std::memcpy(&secs, &t.seconds, sizeof secs);
      mine.insert(mine.end(), {t.id, secs, low64(t.counts.nodes), high64(t.counts.nodes),
                               static_cast<std::uint64_t>(t.position)});
      for (std::size_t i = 0; i < counters; ++i)
        mine.insert(mine.end(), {low64(t.counts.get(i)), high64(t.counts.get(i))});
    }
    int n = static_cast<int>(mine.size());
    std::vector<int> sizes(static_cast<std::size_t>(size_), 0);
    MPI_Gather(&n, 1, MPI_INT, sizes.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::vector<int> offsets(static_cast<std::size_t>(size_), 0);
    int total = 0;
    for (std::size_t r = 0; r < sizes.size(); ++r) {
      offsets[r] = total;
      total += sizes[r];
    }
    std::vector<std::uint64_t> all(rank_ == 0 ? static_cast<std::size_t>(total) : 0);
    MPI_Gatherv(mine.data(), n, MPI_UINT64_T, all.data(), sizes.data(), offsets.data(), MPI_UINT64_T, 0,
                MPI_COMM_WORLD);
    if (rank_ != 0) return;
    tasks.clear();
    for (std::size_t at = 0; at + words <= all.size(); at += words) {
      engine::TaskRecord t;
      t.id = static_cast<std::size_t>(all[at]);
      std::memcpy(&t.seconds, &all[at + 1], sizeof t.seconds);
      t.counts = engine::Tally(counters);
      t.counts.nodes = join64(all[at + 2], all[at + 3]);
      t.position = static_cast<std::size_t>(all[at + 4]);
      for (std::size_t i = 0; i < counters; ++i) t.counts.counts[i] = join64(all[at + 5 + 2 * i], all[at + 6 + 2 * i]);
      tasks.push_back(t);
    }
  }

  void barrier() override { MPI_Barrier(MPI_COMM_WORLD); }

  [[noreturn]] void abort(const std::string& message, int status) override {
    std::cerr << "count-mpi: rank " << rank_ << ": " << message << std::endl;
    MPI_Abort(MPI_COMM_WORLD, status);
    std::_Exit(status);  // MPI_Abort does not return; in case it does
  }

private:
  /// reduce's figures besides the tally: tasks run and parts stolen (sums),
  /// interrupted (any rank), the largest task's share (`largest`: its nodes
  /// on this rank; result.totals.nodes is already the sum).
  void reduce_figures(engine::RunResult& result, double largest) {
    const std::uint64_t mine[2] = {result.tasks_run, result.steals};
    std::uint64_t sums[2] = {0, 0};
    MPI_Allreduce(mine, sums, 2, MPI_UINT64_T, MPI_SUM, MPI_COMM_WORLD);
    result.tasks_run = static_cast<std::size_t>(sums[0]);
    result.steals = sums[1];
    int stop = result.interrupted ? 1 : 0;
    int any = 0;
    MPI_Allreduce(&stop, &any, 1, MPI_INT, MPI_LOR, MPI_COMM_WORLD);
    result.interrupted = any != 0;
    double most = 0.0;
    MPI_Allreduce(&largest, &most, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    const auto nodes = static_cast<double>(result.totals.nodes);
    result.largest_task_share = nodes > 0 ? most / nodes : 0.0;
  }

  std::uint64_t fetch_add(std::uint64_t add) {
    std::lock_guard lock(mutex_);  // MPI calls from worker threads, one at a time
    if (!open_) throw std::logic_error("claim outside a run");
    std::uint64_t old = 0;
    MPI_Fetch_and_op(&add, &old, MPI_UINT64_T, 0, 0, add ? MPI_SUM : MPI_NO_OP, window_);
    MPI_Win_flush(0, window_);
    return old;
  }
  void end_window() {
    std::lock_guard lock(mutex_);
    if (!open_) return;
    MPI_Win_unlock_all(window_);
    MPI_Win_free(&window_);  // collective: every rank ends the run together
    open_ = false;
  }

  int rank_ = 0;
  int size_ = 1;
  MPI_Datatype value_type_{};
  MPI_Op add_op_{};
  MPI_Win window_{};
  bool open_ = false;
  std::mutex mutex_;
};

}  // namespace
}  // namespace pcount::cli

int main(int argc, char** argv) {
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_SERIALIZED, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (provided < MPI_THREAD_SERIALIZED) {
    if (rank == 0) std::cerr << "count-mpi: this MPI library does not support MPI_THREAD_SERIALIZED\n";
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Comm finish_comm = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &finish_comm);
  int status = 1;
  {
    pcount::cli::MpiDistributed dist;
    pcount::cli::NullBuffer null_buffer;
    std::ostream null_out(&null_buffer);
    std::ostringstream rank_err;  // a rank > 0's messages; shown only if it fails alone
    // count's problems under this program's name: messages start "count-mpi:".
    pcount::driver::Program program = pcount::cli::count_program();
    program.name = "count-mpi";
    status = pcount::driver::main(argc, argv, program, rank == 0 ? std::cout : null_out,
                                  rank == 0 ? std::cerr : rank_err, &dist);
    std::cout.flush();
    // Did every rank get here? An error on this rank only (a file it cannot
    // write, a failed allocation) leaves the others waiting in a collective
    // call of the job: then end the whole job. The non-blocking barrier runs
    // on its own communicator so it cannot match a collective of the job.
    MPI_Request done = MPI_REQUEST_NULL;
    MPI_Ibarrier(finish_comm, &done);
    int all_here = 0;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
    while (!all_here && std::chrono::steady_clock::now() < deadline) {
      MPI_Test(&done, &all_here, MPI_STATUS_IGNORE);
      if (!all_here) std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    if (!all_here) {
      if (rank != 0) std::cerr << "count-mpi: rank " << rank << ": " << rank_err.str() << std::flush;
      std::cerr << "count-mpi: rank " << rank << " stopped with status " << status
                << " while other ranks still run the job; aborting all ranks" << std::endl;
      MPI_Abort(MPI_COMM_WORLD, status != 0 ? status : 1);
    }
    int worst = 0;
    MPI_Allreduce(&status, &worst, 1, MPI_INT, MPI_MAX, finish_comm);
    status = worst;
  }
  MPI_Comm_free(&finish_comm);
  MPI_Finalize();
  return status;
}
