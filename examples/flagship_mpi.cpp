// The flagship, distributed (docs/distributed.md): the 784-128-10 MLP of flagship.cpp
// (flagship_model.hpp: ReLU, softmax cross-entropy, global batches of 64, SGD at 0.1)
// trained on Fashion-MNIST by every rank of an MPI job, tf.train.SyncReplicasOptimizer-style:
// each rank computes the gradients on its part of each global batch, sync_replicas averages
// them over the ranks with one allreduce, and every rank applies the same update.
//
//   mpirun -np 2 ./example_flagship_mpi [epochs]
//
// The sharding, by hand-fed batches: every rank draws the same permutation of the 60,000
// training images from the seed and the epoch (reshuffled each epoch, identically on every
// rank) and cuts it into the same global batches of 64, the last one of 32; rank r of p feeds
// rows [m r / p, m (r + 1) / p) of a global batch of m rows, so the ranks' rows never overlap
// and cover the batch, however m divides. Each rank's loss is its rows' mean cross-entropy
// scaled by (its rows x p / m), so the average over the ranks that sync_replicas takes is
// the mean over the global batch even when the parts are unequal (the scale is 1 when they
// are equal).
//
// The chief (rank 0) initializes and broadcasts the variables before the first step; at
// the end of every epoch all ranks check that they hold bit-identical variables; the chief
// evaluates on the 10,000 test images and the job fails (exit 1 on every rank) below 81%.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <numeric>
#include <string>
#include <vector>

#include <typeflow/debug/progress.hpp>
#include <typeflow/distributed/chief.hpp>
#include <typeflow/distributed/communicator.hpp>
#include <typeflow/distributed/replicas.hpp>
#include <typeflow/distributed/sync_replicas.hpp>
#include <typeflow/typeflow.hpp>

#include "data/fashion_mnist.hpp"
#include "flagship_model.hpp"

namespace tf = typeflow;

namespace {

// The training set's order in `epoch`: Fisher-Yates driven by splitmix64 from the seed and
// the epoch. A function of its arguments only, so every rank computes the same one.
std::vector<std::size_t> permutation(std::size_t n, std::uint64_t seed, std::int64_t epoch) {
  std::vector<std::size_t> order(n);
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::uint64_t state = seed * 0x9E3779B97F4A7C15ull + static_cast<std::uint64_t>(epoch);
  for (std::size_t i = n - 1; i > 0; --i) {
    state += 0x9E3779B97F4A7C15ull;
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    std::swap(order[i], order[z % (i + 1)]);
  }
  return order;
}

// The program's own MPI calls, on the communicator's duplicate (which returns errors).
void check_mpi(int code, const char* what) {
  if (code != MPI_SUCCESS)
    throw tf::internal_error(std::string(what) + " failed (MPI error " + std::to_string(code) + ")");
}

// Rank r's rows of a global batch of m rows over p ranks: [m r / p, m (r + 1) / p).
struct shard {
  std::size_t first, count;
};
shard shard_of(std::size_t m, int rank, int ranks) {
  const auto r = static_cast<std::size_t>(rank), p = static_cast<std::size_t>(ranks);
  return {m * r / p, m * (r + 1) / p - m * r / p};
}

}  // namespace

int main(int argc, char** argv) {
  tf::distributed::environment env(&argc, &argv);
  tf::distributed::communicator comm(MPI_COMM_WORLD);
  const std::int64_t epochs = argc > 1 ? std::atoi(argv[1]) : 1;
  const bool chief = comm.is_chief();

  const auto train = fashion_mnist::load("train");
  const auto test = fashion_mnist::load("t10k");
  const std::size_t n = train.size();
  const std::size_t steps_per_epoch = (n + flagship::batch - 1) / flagship::batch;  // 938, the last of 32
  const std::size_t last_batch = n - (steps_per_epoch - 1) * flagship::batch;
  if (static_cast<std::size_t>(comm.size()) > last_batch) {
    if (chief)
      std::printf("FAILED: %d ranks, but the last global batch has %zu rows: every rank needs one\n", comm.size(),
                  last_batch);
    return 1;
  }
  if (chief)
    std::printf("Fashion-MNIST: %zu training and %zu test images; %d ranks, global batch %zu\n", n, test.size(),
                comm.size(), flagship::batch);

  // [snippet flagship_mpi_graph]
  auto x = tf::placeholder<"x", float, tf::shape<tf::dyn, 784>>();
  auto labels = tf::placeholder<"labels", std::int32_t, tf::shape<tf::dyn>>();
  auto scale = tf::placeholder<"loss_scale", float>();  // this rank's rows x ranks / global rows
  auto loss = tf::reduce_mean(tf::sparse_softmax_cross_entropy_with_logits(labels, flagship::model(x))) * scale;
  auto train_op = tf::distributed::sync_replicas(tf::train::gradient_descent(flagship::learning_rate), comm)
                      .minimize(loss, tf::train::global_step());
  // [/snippet flagship_mpi_graph]

  auto test_x = tf::placeholder<"test_x", float, tf::shape<tf::dyn, 784>>();
  auto test_labels = tf::placeholder<"test_labels", std::int64_t, tf::shape<tf::dyn>>();
  auto accuracy =
      tf::reduce_mean(tf::cast<float>(tf::equal(tf::argmax<1>(flagship::model(test_x)), test_labels)));

  // [snippet flagship_mpi_session]
  tf::session sess(train_op, loss, accuracy);
  tf::distributed::bind(sess, comm);
  sess.set_random_seed(flagship::graph_seed);
  sess.run(tf::global_variables_initializer());
  tf::distributed::broadcast_variables(sess, comm);  // every rank starts from the chief's
  // [/snippet flagship_mpi_session]

  // This rank's part of the step's global batch: 32 rows of 64 on 2 ranks, 16 of the last 32.
  xt::xtensor<float, 2> xb = xt::zeros<float>({std::size_t{0}, std::size_t{784}});
  xt::xtensor<std::int32_t, 1> yb = xt::zeros<std::int32_t>({std::size_t{0}});
  tf::debug::progress display(epochs * static_cast<std::int64_t>(steps_per_epoch),
                              static_cast<std::int64_t>(flagship::batch), chief ? stdout : nullptr);
  std::int64_t step = 0;
  std::uint64_t trained_checksum = 0;  // the last epoch's
  const auto start = std::chrono::steady_clock::now();
  auto epoch_start = start;
  for (std::int64_t epoch = 0; epoch < epochs; ++epoch) {
    // [snippet flagship_mpi_shard]
    const auto order = permutation(n, flagship::shuffle_seed, epoch);  // the same on every rank
    double loss_sum = 0;  // of this rank's scaled losses: their sum over the ranks / ranks is the mean
    for (std::size_t s = 0; s < steps_per_epoch; ++s) {
      const std::size_t m = std::min(flagship::batch, n - s * flagship::batch);  // 64, the last 32
      const auto [first, count] = shard_of(m, comm.rank(), comm.size());       // rows [m r/p, m (r+1)/p)
      if (xb.shape(0) != count) {
        xb.resize({count, std::size_t{784}});
        yb.resize({count});
      }
      for (std::size_t i = 0; i < count; ++i) {
        const std::size_t k = order[s * flagship::batch + first + i];
        std::copy_n(train.images.data() + k * 784, 784, xb.data() + i * 784);
        yb(i) = train.labels[k];
      }
      const float weight = static_cast<float>(count * static_cast<std::size_t>(comm.size())) / static_cast<float>(m);
      const float rank_loss = std::get<0>(
          sess.run(tf::fetch(loss, train_op), tf::feed(x, xb), tf::feed(labels, yb), tf::feed(scale, weight)));
      loss_sum += rank_loss;
      display.update(++step, rank_loss);  // the chief's part of the batch
    }
    // The replicas applied the same averaged updates: their variables are bit-identical.
    const std::uint64_t checksum = tf::distributed::check_replicas_identical(sess, comm);
    // [/snippet flagship_mpi_shard]
    trained_checksum = checksum;
    double mean_loss = 0;
    check_mpi(MPI_Allreduce(&loss_sum, &mean_loss, 1, MPI_DOUBLE, MPI_SUM, comm.native()), "MPI_Allreduce of the loss");
    mean_loss /= static_cast<double>(comm.size()) * static_cast<double>(steps_per_epoch);
    const auto now = std::chrono::steady_clock::now();
    // On its own line, also under a progress display: mpirun gives the ranks a terminal
    // even when its own output goes to a file.
    if (chief)
      std::printf("%sepoch %lld: mean loss %.4f, %.3f s, replicas identical (checksum %016llx)\n",
                  display.active() ? "\n" : "", static_cast<long long>(epoch + 1), mean_loss,
                  std::chrono::duration<double>(now - epoch_start).count(), static_cast<unsigned long long>(checksum));
    epoch_start = now;
  }
  display.finish();
  const double train_secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  // [snippet flagship_mpi_checkpoint]
  // The chief alone writes the checkpoint (its directory, made by the chief, is named to
  // every rank); a restarted job restores it on the chief and broadcasts it to every rank.
  namespace fs = std::filesystem;
  const fs::path dir = tf::distributed::run_on_chief(comm, [] {
    std::string d = (fs::temp_directory_path() / "typeflow_flagship_mpi_XXXXXX").string();
    if (::mkdtemp(d.data()) == nullptr) throw tf::internal_error("cannot make a directory " + d);
    return d;
  });
  tf::train::saver saver{};
  const std::string checkpoint =
      tf::distributed::save_on_chief(saver, sess, comm, dir / "model.ckpt", tf::train::global_step());
  sess.run(tf::global_variables_initializer());     // as a restarted job's new sessions
  tf::distributed::restore(saver, sess, comm, checkpoint);
  const std::uint64_t restored = tf::distributed::check_replicas_identical(sess, comm);
  // [/snippet flagship_mpi_checkpoint]
  tf::distributed::run_on_chief(comm, [&] { fs::remove_all(dir); });

  // The chief evaluates and decides; every rank exits with its verdict.
  int failed = 0;
  if (chief) {
    xt::xtensor<float, 2> tx = xt::adapt(test.images, std::array<std::size_t, 2>{test.size(), 784});
    xt::xtensor<std::int64_t, 1> ty = xt::zeros<std::int64_t>({test.size()});
    std::copy(test.labels.begin(), test.labels.end(), ty.begin());
    const float acc = sess.run(accuracy, tf::feed(test_x, tx), tf::feed(test_labels, ty));
    const std::int64_t global_step = sess.run(tf::train::global_step());
    std::printf("checkpoint %s written by the chief, restored on every rank (checksum %016llx)\n", checkpoint.c_str(),
                static_cast<unsigned long long>(restored));
    std::printf("trained %lld steps on %d ranks in %.2f s; test accuracy %.2f%%\n",
                static_cast<long long>(global_step), comm.size(), train_secs, 100 * acc);
    if (restored != trained_checksum) {
      std::printf("FAILED: the restored variables differ from the trained ones\n");
      failed = 1;
    } else if (global_step != epochs * static_cast<std::int64_t>(steps_per_epoch)) {
      std::printf("FAILED: global_step %lld, expected %lld\n", static_cast<long long>(global_step),
                  static_cast<long long>(epochs * static_cast<std::int64_t>(steps_per_epoch)));
      failed = 1;
    } else if (acc < flagship::target_accuracy) {
      std::printf("FAILED: test accuracy below %.0f%%\n", 100 * flagship::target_accuracy);
      failed = 1;
    }
  }
  check_mpi(MPI_Bcast(&failed, 1, MPI_INT, 0, comm.native()), "MPI_Bcast of the verdict");
  return failed;
}
