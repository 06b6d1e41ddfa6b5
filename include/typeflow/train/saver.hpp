// typeflow/train/saver.hpp — tf.train.Saver: saving and restoring a session's variables.
//
//   train::saver saver{};                          // every variable of the session
//   train::saver some(w, b);                       // these variables, under their names
//   train::saver renamed(train::saved_as<"a">(d)); // d, under the checkpoint key "a"
//   train::saver opts({.max_to_keep = 3}, w, b);   // with options
//
//   auto path = saver.save(sess, "/tmp/run/model.ckpt", step);  // "/tmp/run/model.ckpt-<step>"
//   saver.restore(sess, *train::latest_checkpoint("/tmp/run"));
//
// Keys known at compile time must be unique in one saver: a duplicate does not compile.
// save() writes one archive atomically and durably (io/file.hpp), then the directory's
// "checkpoint" state file, then deletes the checkpoints beyond max_to_keep, the ones of a
// previous run of the program included (the saver rebuilds its list from the state file and
// a scan of the directory when it first saves there, unless set_last_checkpoints or
// recover_last_checkpoints gave it one). If the state file cannot be written, the save
// throws, saying that its checkpoint is complete but unlisted, and the checkpoints taken off
// the list are deleted after the next successful state write instead (as TensorFlow). One
// saver per directory at a time.
//
// restore() is all-or-nothing: it checks every key, dtype and shape, reads and verifies
// every tensor it needs, and only then writes the session's variables; any failure leaves
// the session unchanged and lists every problem. Over initialized variables it maps the
// file, verifies the tensors where they lie and copies them once (saver_options::map_file;
// a file that cannot be mapped is read into a staging buffer). With a mapping, another
// process truncating the file during the restore raises SIGBUS, and one writing into it is
// noticed by the file's times: the restore then fails with DataLoss and its variables are
// left uninitialized (docs/reference/checkpoints.md, "Restoring over initialized variables").
#pragma once

#include <sys/mman.h>
#include <sys/stat.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <new>
#include <filesystem>
#include <functional>
#include <limits>
#include <iterator>
#include <list>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>

#include "typeflow/core/dtype.hpp"
#include "typeflow/core/errors.hpp"
#include "typeflow/core/fixed_string.hpp"
#include "typeflow/core/node.hpp"
#include "typeflow/io/checkpoint_format.hpp"
#include "typeflow/io/file.hpp"
#include "typeflow/io/manifest.hpp"
#include "typeflow/train/checkpoint_state.hpp"

namespace typeflow::train {

using io::archive_format;

/// One tensor of a checkpoint's manifest (tf.train.list_variables): name, dtype, shape.
using variable_info = io::tensor_info;

/// The manifest of the checkpoint at `path`: (name, shape, dtype) of every tensor, sorted
/// by name as tf.train.list_variables sorts them (io::list_tensors gives the file order).
/// Reads the header only.
inline std::vector<variable_info> list_variables(const std::filesystem::path& path) {
  auto out = io::list_tensors(path);
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

// --- what a saver saves -------------------------------------------------------------------------

/// Variable V saved under the checkpoint key Key (TensorFlow's dict var_list entry).
template <fixed_string Key, class V>
struct saved_as_t {
  static constexpr auto key = Key;
  using variable = V;
};

/// `saved_as<"a">(d)`: save d under the key "a", and restore d from the key "a".
template <fixed_string Key, node V>
constexpr saved_as_t<Key, V> saved_as(V) {
  static_assert(requires { V::is_variable; }, "train::saved_as<\"key\">(v): v must be a variable");
  return {};
}

/// A list of (key, variable) entries, as a saver takes it (what
/// exponential_moving_average::variables_to_restore returns).
template <class... Entries>
struct saver_var_map {};

/// `var_map(saved_as<"a">(d), w)`: entries for a saver, variables under their own names.
template <class... A>
constexpr auto var_map(A...);

/// Options of a saver (tf.train.Saver's keyword arguments).
struct saver_options {
  /// Checkpoints kept; older ones are deleted. 0 or nullopt (TensorFlow's None) keeps
  /// every checkpoint, and the saver then lists none (last_checkpoints() is empty, the
  /// state file lists the latest only), as TensorFlow.
  std::optional<std::size_t> max_to_keep = 5;
  /// Besides the newest max_to_keep, keep one checkpoint per this many hours.
  double keep_checkpoint_every_n_hours = 10000.0;
  /// Restore a tensor of another shape when the element counts agree.
  bool reshape = false;
  /// The archive written (restore reads both).
  archive_format format = archive_format::portable_binary;
  /// The name of the state file.
  std::string latest_filename = "checkpoint";
  /// Seconds since the epoch; the system clock when empty (tests pass their own). Read
  /// when the saver is made (the first keep_checkpoint_every_n_hours period starts then)
  /// and at each save (the checkpoint's timestamp).
  std::function<double()> clock{};
  /// Restore over initialized variables through a read-only mapping of the checkpoint
  /// (verified where it lies, then copied once) rather than read(2) into a staging buffer.
  /// A process that truncates the file during such a restore kills this one with SIGBUS;
  /// false reads instead. See docs/reference/checkpoints.md, "Restoring over initialized
  /// variables".
  bool map_file = true;
};

/// What differs between the variables a saver (or a session) expects and a checkpoint:
/// missing, extra, shape and dtype differences.
using io::checkpoint_diff;
/// Compares an expected manifest with a checkpoint's.
using io::diff_manifests;
/// A manifest as text ("name<TAB>dtype<TAB>[dims]" per line), for tools/inspect_checkpoint --diff.
using io::format_manifest;
using io::parse_manifest;

// --- diagnostics ----------------------------------------------------------------------------------

/// In a diagnostic: two variables of one saver are saved under this checkpoint key.
template <fixed_string Key>
struct checkpoint_key_is_used_twice_in_one_saver {
  static constexpr bool value = false;
};

/// In a diagnostic: the saver saves this variable, which the session does not hold.
template <fixed_string Variable>
struct saver_variable_is_not_in_the_session {
  static constexpr bool value = false;
};

/// In a diagnostic: this argument of train::saver(...) is neither a variable, saved_as nor var_map.
template <class T>
struct saver_argument_is_not_a_variable {
  static constexpr bool value = false;
};

/// The marker of a saver over every variable of the session it is used with.
struct all_variables {};

namespace detail {

template <class A>
struct entries_of_arg {
  static_assert(saver_argument_is_not_a_variable<A>::value,
                "train::saver(args...): pass variables, train::saved_as<\"key\">(v) or a var_map");
  using type = mp::mp_list<>;
};
template <class A>
  requires requires { A::is_variable; }
struct entries_of_arg<A> {
  using type = mp::mp_list<saved_as_t<A::name, A>>;
};
template <fixed_string Key, class V>
struct entries_of_arg<saved_as_t<Key, V>> {
  using type = mp::mp_list<saved_as_t<Key, V>>;
};
template <class... E>
struct entries_of_arg<saver_var_map<E...>> {
  using type = mp::mp_list<E...>;
};

template <class... A>
using entries_t = mp::mp_append<mp::mp_list<>, typename entries_of_arg<A>::type...>;

template <class... A>
struct guided_entries {
  using type = entries_t<A...>;
};
template <class... A>
struct guided_entries<saver_options, A...> {
  using type = entries_t<A...>;
};

template <class L>
struct first_duplicate_key;
template <class... E>
struct first_duplicate_key<mp::mp_list<E...>> {
  static constexpr std::size_t value = [] {
    constexpr std::array<std::string_view, sizeof...(E)> keys{E::key.view()...};
    for (std::size_t i = 0; i < keys.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (keys[i] == keys[j]) return i;
    return keys.size();
  }();
};

template <class L, std::size_t I = first_duplicate_key<L>::value>
struct check_unique_keys {
  static constexpr bool value = true;
};
template <class L, std::size_t I>
  requires(I < mp::mp_size<L>::value)
struct check_unique_keys<L, I> {
  static_assert(checkpoint_key_is_used_twice_in_one_saver<mp::mp_at_c<L, I>::key>::value,
                "train::saver(...): two variables are saved under the same checkpoint key; give one "
                "of them another key with train::saved_as<\"key\">(v)");
  static constexpr bool value = false;
};

template <class Entries>
constexpr bool keys_are_unique() {
  if constexpr (std::is_same_v<Entries, all_variables>) {
    return true;  // names are unique per graph
  } else {
    return check_unique_keys<Entries>::value;
  }
}

template <class V>
using own_name_entry = saved_as_t<V::name, V>;

template <class Entries, class Session>
struct resolve_entries {
  using type = Entries;
};
template <class Session>
struct resolve_entries<all_variables, Session> {
  using type = mp::mp_transform<own_name_entry, typename Session::variables>;
};

template <class Session, class L>
struct check_held;
template <class Session, class... E>
struct check_held<Session, mp::mp_list<E...>> {
  template <class V>
  static constexpr bool one() {
    if constexpr (!Session::template holds<V>) {
      static_assert(saver_variable_is_not_in_the_session<V::name>::value,
                    "saver.save/restore(sess, ...): the saver has a variable that the session does not "
                    "hold; pass a node that reaches it to the session's constructor");
      return false;
    } else {
      return true;
    }
  }
  static constexpr bool value = (one<typename E::variable>() && ...);
};

template <class V>
struct variable_meta {
  using T = value_type_of<V>;
  static constexpr std::size_t rank = shape_of<V>::rank;
  static constexpr auto dims = [] {
    std::array<std::uint64_t, rank> d{};
    for (std::size_t i = 0; i < rank; ++i) d[i] = static_cast<std::uint64_t>(shape_of<V>::dims[i]);
    return d;
  }();
  static constexpr std::uint64_t elements = shape_of<V>::size;
  static constexpr std::uint64_t bytes = elements * sizeof(T);
  static_assert(sizeof(T) == dtype_size(dtype_of<T>), "checkpoints store each element in its dtype's size");

  static variable_info info(std::string_view key) { return {std::string(key), dtype_of<T>, {dims.begin(), dims.end()}}; }
};

template <class Storage>
auto* storage_data(Storage& s) noexcept {
  if constexpr (std::is_arithmetic_v<std::remove_cvref_t<Storage>>) {
    return &s;
  } else {
    return s.data();
  }
}

/// Uninitialized memory for staged tensors; large arenas ask for transparent huge pages,
/// which makes first touching them several times cheaper.
struct free_deleter {
  void operator()(unsigned char* p) const noexcept { std::free(p); }
};
inline std::unique_ptr<unsigned char[], free_deleter> staging_arena(std::size_t bytes) {
  constexpr std::size_t huge = std::size_t{2} << 20;
  if (bytes == 0) return nullptr;
  if (bytes < huge) {
    auto* small = static_cast<unsigned char*>(std::malloc(bytes));
    if (!small) throw std::bad_alloc();
    return std::unique_ptr<unsigned char[], free_deleter>(small);
  }
  const std::size_t rounded = (bytes + huge - 1) / huge * huge;
  auto* p = static_cast<unsigned char*>(std::aligned_alloc(huge, rounded));
#ifdef MADV_HUGEPAGE
  if (p) ::madvise(p, rounded, MADV_HUGEPAGE);
#endif
  if (!p) throw std::bad_alloc();
  return std::unique_ptr<unsigned char[], free_deleter>(p);
}

/// Tests only: called by a mapped restore between verifying the checkpoint and copying it
/// into the variables, to change the file in that moment.
inline void (*after_verify_for_tests)() = nullptr;

inline double system_seconds() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

/// "<base>-<digits>" or "<base>": a checkpoint that a saver with prefix base writes.
inline bool is_checkpoint_of(std::string_view file, std::string_view base) {
  if (file == base) return true;
  if (file.size() < base.size() + 2 || file.substr(0, base.size()) != base || file[base.size()] != '-') return false;
  const auto digits = file.substr(base.size() + 1);
  const auto start = digits.front() == '-' ? 1u : 0u;
  if (digits.size() <= start) return false;
  return std::all_of(digits.begin() + start, digits.end(), [](char c) { return c >= '0' && c <= '9'; });
}

}  // namespace detail

template <class... A>
constexpr auto var_map(A...) {
  return mp::mp_rename<detail::entries_t<A...>, saver_var_map>{};
}

/// The entries (key, variable) that a saver over Entries saves for Session.
template <class Entries, class Session>
using saver_entries_t = typename detail::resolve_entries<Entries, Session>::type;

/// The expected manifest of a saver over Entries used with Session.
template <class Entries, class Session>
std::vector<variable_info> expected_manifest() {
  std::vector<variable_info> out;
  mp::mp_for_each<mp::mp_transform<mp::mp_identity, saver_entries_t<Entries, Session>>>([&](auto id) {
    using E = typename decltype(id)::type;
    out.push_back(detail::variable_meta<typename E::variable>::info(E::key.view()));
  });
  return out;
}

/// The manifest of a session's variables, under their names (write it to a file with
/// format_manifest for tools/inspect_checkpoint --diff).
template <class Session>
std::vector<variable_info> manifest_of(const Session&) {
  return expected_manifest<all_variables, Session>();
}

/// How a checkpoint differs from a session's variables: missing, extra, shape and dtype.
template <class Session>
checkpoint_diff diff_checkpoint(const Session& sess, const std::filesystem::path& path) {
  return diff_manifests(manifest_of(sess), io::list_tensors(path));
}

/// tf.train.Saver over Entries: `all_variables` (the default) or an mp_list of saved_as_t.
template <class Entries = all_variables>
class saver {
  // One error, then stop: the check reports a duplicate itself (naming the key).
  static_assert(detail::keys_are_unique<Entries>() || true);

 public:
  /// A saver over every variable of the session it is used with.
  saver() requires std::is_same_v<Entries, all_variables> = default;
  explicit saver(saver_options options) requires std::is_same_v<Entries, all_variables>
      : options_(std::move(options)) {}
  /// A saver over these variables (and saved_as / var_map entries).
  template <class... A>
    requires(sizeof...(A) > 0)
  explicit saver(A...) {}
  template <class... A>
    requires(sizeof...(A) > 0)
  saver(saver_options options, A...) : options_(std::move(options)) {}

  const saver_options& options() const noexcept { return options_; }

  /// The checkpoints this saver keeps, oldest first (tf.train.Saver.last_checkpoints).
  /// Empty when max_to_keep is 0 or nullopt.
  std::vector<std::string> last_checkpoints() const {
    std::vector<std::string> out;
    for (const auto& c : kept_) out.push_back(c.path);
    return out;
  }

  /// The checkpoints this saver kept, oldest first, with the time each was saved (seconds
  /// since the epoch).
  std::vector<std::pair<std::string, double>> last_checkpoints_with_time() const {
    std::vector<std::pair<std::string, double>> out;
    for (const auto& c : kept_) out.emplace_back(c.path, c.timestamp);
    return out;
  }

  /// tf.train.Saver.set_last_checkpoints: the list of kept checkpoints, oldest first. Their
  /// timestamps are +infinity (as TensorFlow), so that keep_checkpoint_every_n_hours
  /// preserves rather than deletes them when they rotate out. The saver then takes this
  /// list as it is: its next save does not take over the directory's other checkpoints.
  void set_last_checkpoints(const std::vector<std::string>& paths) {
    std::vector<std::pair<std::string, double>> with_time;
    for (const auto& p : paths) with_time.emplace_back(p, std::numeric_limits<double>::infinity());
    set_last_checkpoints_with_time(with_time);
  }

  /// tf.train.Saver.set_last_checkpoints_with_time: the kept checkpoints, oldest first,
  /// with the time each was saved; as set_last_checkpoints otherwise.
  void set_last_checkpoints_with_time(const std::vector<std::pair<std::string, double>>& paths) {
    kept_.clear();
    for (const auto& [p, t] : paths) kept_.push_back({p, t});
    list_given_ = true;
  }

  /// Writes the saver's variables to `prefix`-`global_step` (or `prefix` without a step),
  /// updates the state file and deletes checkpoints beyond max_to_keep; returns the path.
  template <class Session>
  std::string save(const Session& sess, const std::filesystem::path& prefix,
                   std::optional<std::int64_t> global_step = std::nullopt) {
    using entries = saver_entries_t<Entries, Session>;
    if constexpr (!detail::check_held<Session, entries>::value) {
      return {};
    } else {
      std::vector<std::string> uninitialized;
      std::vector<io::tensor_data_view> tensors;
      mp::mp_for_each<mp::mp_transform<mp::mp_identity, entries>>([&](auto id) {
        using E = typename decltype(id)::type;
        using V = typename E::variable;
        using M = detail::variable_meta<V>;
        const auto& slot = sess.template slot<V>();
        if (!slot.initialized) uninitialized.emplace_back(V::name.view());
        tensors.push_back({E::key.view(), dtype_of<typename M::T>, M::dims, detail::storage_data(slot.value)});
      });
      std::filesystem::path path = prefix;
      if (global_step) path += "-" + std::to_string(*global_step);
      if (!uninitialized.empty())
        throw failed_precondition_error("Attempting to use uninitialized value " + join(uninitialized) +
                                        " (saving checkpoint " + path.string() + ")");
      const auto dir = path.parent_path().empty() ? std::filesystem::path(".") : path.parent_path();
      std::error_code ec;
      if (!std::filesystem::is_directory(dir, ec))
        throw not_found_error("Parent directory of " + path.string() + " doesn't exist, can't save");
      if (!std::filesystem::is_regular_file(path, ec) && std::filesystem::exists(path, ec))
        throw invalid_argument_error("Cannot save checkpoint " + path.string() + ": a non-file exists under that name");
      recover(dir, prefix.filename().string());

      io::atomic_file_writer writer(path);
      try {
        io::write_checkpoint(writer.stream(), options_.format, global_step, tensors);
      } catch (const cereal::Exception&) {
        writer.fail("write", writer.write_error() ? writer.write_error() : EIO);
      }
      writer.commit();
      after_save(dir, path);
      return path.string();
    }
  }

  /// save() with the step read from a scalar integer variable of the session (global_step).
  template <class Session, node Step>
    requires requires { Step::is_variable; }
  std::string save(const Session& sess, const std::filesystem::path& prefix, Step) {
    static_assert(std::is_integral_v<value_type_of<Step>> && shape_of<Step>::rank == 0,
                  "saver.save(sess, prefix, step): step must be a scalar integer variable");
    if (!sess.template slot<Step>().initialized)
      throw failed_precondition_error("Attempting to use uninitialized value " + std::string(Step::name.view()));
    return save(sess, prefix, static_cast<std::int64_t>(sess.template slot<Step>().value));
  }

  /// Restores the saver's variables from the checkpoint at `path`, all or nothing.
  template <class Session>
  void restore(Session& sess, const std::filesystem::path& path) const {
    using entries = saver_entries_t<Entries, Session>;
    if constexpr (detail::check_held<Session, entries>::value) {
      constexpr std::size_t n = mp::mp_size<entries>::value;
      // An initialized variable's current value must survive a failure, so its new value
      // cannot be read into it before every tensor is verified; so is a variable under two
      // keys (its tensors are copied in the saver's order).
      bool any_staged = false;
      mp::mp_for_each<mp::mp_transform<mp::mp_identity, entries>>([&](auto id) {
        using V = typename decltype(id)::type::variable;
        any_staged = any_staged || sess.template slot<V>().initialized || in_place_twice<V>(sess);
      });
      // Then the checkpoint is mapped, verified where it lies and copied once (when the file
      // can be mapped), or read into a staging buffer.
      std::optional<io::mapped_file> mapping;
      if (any_staged && options_.map_file) mapping = io::mapped_file::map(path);
      std::optional<io::checkpoint_reader> opened;
      if (mapping) {
        opened.emplace(mapping->data(), mapping->size(), path.string());
      } else {
        opened.emplace(path);
      }
      io::checkpoint_reader& reader = *opened;
      const auto& header = reader.header();

      // 1. Every key, dtype and shape, before reading any data.
      std::vector<std::string> missing, mismatches;
      std::array<std::size_t, n> tensor_index{};
      std::size_t i = 0;
      mp::mp_for_each<mp::mp_transform<mp::mp_identity, entries>>([&](auto id) {
        using E = typename decltype(id)::type;
        using V = typename E::variable;
        using M = detail::variable_meta<V>;
        const auto key = E::key.view();
        const auto found = std::find_if(header.tensors.begin(), header.tensors.end(),
                                        [&](const auto& t) { return t.name == key; });
        tensor_index[i++] = static_cast<std::size_t>(found - header.tensors.begin());
        if (found == header.tensors.end()) {
          missing.push_back("Key " + std::string(key) + " not found in checkpoint " + reader.path());
          return;
        }
        const std::string var = "variable " + std::string(V::name.view()) +
                                (key == V::name.view() ? std::string() : " (checkpoint key " + std::string(key) + ")");
        if (found->dtype != dtype_of<typename M::T>)
          mismatches.push_back("Cannot restore " + var + " of dtype " + std::string(dtype_name_of<typename M::T>) +
                               " from a tensor of dtype " + std::string(dtype_name(found->dtype)) + " in checkpoint " +
                               reader.path());
        bool same_shape = found->shape.size() == M::rank;
        for (std::size_t d = 0; same_shape && d < M::rank; ++d) same_shape = found->shape[d] == M::dims[d];
        if (!same_shape && !(options_.reshape && found->num_elements() == M::elements))
          mismatches.push_back("Cannot restore " + var + " of shape " + io::dims_string(M::dims) +
                               " from a tensor of shape " + found->shape_string() + " in checkpoint " + reader.path() +
                               (found->num_elements() == M::elements ? " (the element counts agree: make the saver "
                                                                       "with reshape = true to restore it)"
                                                                     : ""));
      });
      if (!missing.empty()) {
        for (auto& m : mismatches) missing.push_back(std::move(m));
        throw not_found_error(join(missing, "\n"));
      }
      if (!mismatches.empty()) throw invalid_argument_error(join(mismatches, "\n"));

      std::vector<std::size_t> entry_of(header.tensors.size(), n);
      for (std::size_t e = 0; e < n; ++e) entry_of[tensor_index[e]] = e;
      if (reader.can_verify_in_place()) {
        restore_mapped<entries>(sess, *mapping, reader, tensor_index, entry_of);
        return;
      }

      // 2. Read and verify the data. An initialized variable's new value is staged (its
      // current value must survive a failure); an uninitialized variable is read in place:
      // it stays uninitialized until every tensor is verified, so a failure changes nothing
      // a program can observe through the session.
      std::array<void*, n> dest{};
      std::array<std::size_t, n> offset{};
      std::size_t staged_bytes = 0;
      i = 0;
      mp::mp_for_each<mp::mp_transform<mp::mp_identity, entries>>([&](auto id) {
        using V = typename decltype(id)::type::variable;
        auto& slot = sess.template slot<V>();
        if (slot.initialized || in_place_twice<V>(sess)) {
          offset[i] = staged_bytes;
          staged_bytes += (detail::variable_meta<V>::bytes + 63) / 64 * 64;
        } else {
          dest[i] = static_cast<void*>(detail::storage_data(slot.value));
        }
        ++i;
      });
      const auto arena = detail::staging_arena(staged_bytes);
      for (std::size_t e = 0; e < n; ++e)
        if (!dest[e]) dest[e] = arena.get() + offset[e];
      reader.read_tensors([&](const io::tensor_info&, std::size_t index) -> void* {
        const auto e = entry_of[index];
        return e == n ? nullptr : dest[e];
      });

      // 3. Commit: nothing below can fail.
      i = 0;
      mp::mp_for_each<mp::mp_transform<mp::mp_identity, entries>>([&](auto id) {
        using V = typename decltype(id)::type::variable;
        auto& slot = sess.template slot<V>();
        void* storage = static_cast<void*>(detail::storage_data(slot.value));
        if (dest[i] != storage) std::memcpy(storage, dest[i], detail::variable_meta<V>::bytes);
        ++i;
      });
      mp::mp_for_each<mp::mp_transform<mp::mp_identity, entries>>([&](auto id) {
        sess.template slot<typename decltype(id)::type::variable>().initialized = true;
      });
    }
  }

  /// How the checkpoint at `path` differs from what this saver would restore into Session.
  template <class Session>
  checkpoint_diff diff(const Session&, const std::filesystem::path& path) const {
    return diff_manifests(expected_manifest<Entries, Session>(), io::list_tensors(path));
  }

  /// tf.train.Saver.recover_last_checkpoints: sets the list of kept checkpoints to those of
  /// `paths` that exist, in the order given, each with its file's modification time (a
  /// checkpoint deleted meanwhile is left out); as set_last_checkpoints otherwise.
  void recover_last_checkpoints(const std::vector<std::string>& paths) {
    std::vector<std::pair<std::string, double>> with_time;
    for (const auto& p : paths)
      if (const auto t = mtime_of(p)) with_time.emplace_back(p, *t);
    set_last_checkpoints_with_time(with_time);
  }

  /// Checkpoints that rotation took off the list but could not delete yet, because the
  /// state file could not be written (they are deleted after the next state write).
  std::vector<std::string> pending_deletions() const { return pending_delete_; }

 private:
  struct kept_checkpoint {
    std::string path;
    double timestamp;
  };

  static std::string join(const std::vector<std::string>& v, std::string_view sep = ", ") {
    std::string out;
    for (std::size_t i = 0; i < v.size(); ++i) {
      if (i) out += sep;
      out += v[i];
    }
    return out;
  }

  double now() const { return options_.clock ? options_.clock() : detail::system_seconds(); }

  // restore(), steps 2 and 3 over a mapped checkpoint: every tensor needed is verified where
  // it lies, then copied into its variable. If the file's times say that another process
  // wrote into it meanwhile, the variables may hold bytes nobody verified: they are marked
  // uninitialized rather than left holding them.
  template <class EntryList, class Session, std::size_t N>
  static void restore_mapped(Session& sess, const io::mapped_file& mapping, io::checkpoint_reader& reader,
                             const std::array<std::size_t, N>& tensor_index, const std::vector<std::size_t>& entry_of) {
    const auto where = reader.verify_in_place(
        [&](const io::tensor_info&, std::size_t index) { return entry_of[index] != N; });
    if (detail::after_verify_for_tests) detail::after_verify_for_tests();

    // 3. Commit: nothing below can fail, unless the file changed since it was mapped.
    std::size_t i = 0;
    mp::mp_for_each<mp::mp_transform<mp::mp_identity, EntryList>>([&](auto id) {
      using V = typename decltype(id)::type::variable;
      const auto& from = where[tensor_index[i++]];
      void* storage = static_cast<void*>(detail::storage_data(sess.template slot<V>().value));
      std::memcpy(storage, from.data, static_cast<std::size_t>(detail::variable_meta<V>::bytes));
    });
    if (mapping.changed_since_mapped()) {
      std::vector<std::string> names;
      mp::mp_for_each<mp::mp_transform<mp::mp_identity, EntryList>>([&](auto id) {
        using V = typename decltype(id)::type::variable;
        sess.template slot<V>().initialized = false;
        if (std::find(names.begin(), names.end(), V::name.view()) == names.end()) names.emplace_back(V::name.view());
      });
      throw data_loss_error("Checkpoint " + reader.path() +
                            " changed while it was being restored (another process wrote into it). The variables "
                            "being restored (" +
                            join(names) + ") may hold bytes that were not verified and are now uninitialized");
    }
    mp::mp_for_each<mp::mp_transform<mp::mp_identity, EntryList>>([&](auto id) {
      sess.template slot<typename decltype(id)::type::variable>().initialized = true;
    });
  }

  // Whether V appears under more than one key of this saver (it is then staged, so that
  // the tensors are copied in the saver's order).
  template <class V, class Session>
  static constexpr bool in_place_twice(const Session&) {
    using entries = saver_entries_t<Entries, Session>;
    return count_v<mp::mp_transform<variable_of, entries>, V> > 1;
  }
  template <class E>
  using variable_of = typename E::variable;

  static std::optional<double> mtime_of(const std::filesystem::path& p) {
    struct ::stat st {};
    if (::stat(p.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) return std::nullopt;
    return static_cast<double>(st.st_mtim.tv_sec) + 1e-9 * static_cast<double>(st.st_mtim.tv_nsec);
  }

  bool rotating() const noexcept { return options_.max_to_keep.value_or(0) > 0; }
  double keep_period() const noexcept { return options_.keep_checkpoint_every_n_hours * 3600.0; }

  /// On the first save into `dir`: takes over the checkpoints of a previous run (the
  /// state file's list and the files "<base>-<step>" the directory holds) and removes the
  /// temporary files that a killed save left behind.
  void recover(const std::filesystem::path& dir, const std::string& base) {
    if (recovered_dir_ && *recovered_dir_ == dir) return;
    recovered_dir_ = dir;
    // A list given by set_last_checkpoints / recover_last_checkpoints is taken as it is.
    if (std::exchange(list_given_, false)) return;
    std::vector<kept_checkpoint> found;
    std::optional<checkpoint_state> state;
    try {
      state = get_checkpoint_state(dir, options_.latest_filename);
    } catch (const data_loss_error&) {
      // A corrupt state file is rebuilt from the directory below and replaced by this save.
    } catch (const failed_precondition_error&) {
      // Neither is a state file that is not a regular file; this save then says that it
      // could not list its checkpoint.
    }
    if (state) {
      if (state->last_preserved_timestamp) next_keep_time_ = *state->last_preserved_timestamp + keep_period();
      for (std::size_t i = 0; i < state->all_model_checkpoint_paths.size(); ++i) {
        const auto& name = state->all_model_checkpoint_paths[i];
        if (!detail::is_checkpoint_of(name, base)) continue;
        std::error_code ec;
        if (!std::filesystem::is_regular_file(dir / name, ec)) continue;
        const double t = i < state->all_model_checkpoint_timestamps.size() ? state->all_model_checkpoint_timestamps[i]
                                                                            : mtime_of(dir / name).value_or(0);
        found.push_back({(dir / name).string(), t});
      }
    }
    std::vector<kept_checkpoint> scanned;
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
      const auto name = entry.path().filename().string();
      std::error_code ec2;
      if (!entry.is_regular_file(ec2)) continue;
      const auto dash = name.rfind(".tmp.");
      if (dash != std::string::npos && (detail::is_checkpoint_of(name.substr(0, dash), base) ||
                                        name.substr(0, dash) == options_.latest_filename)) {
        if (io::is_temp_file_of(name, name.substr(0, dash))) ::unlink(entry.path().c_str());
        continue;
      }
      if (!detail::is_checkpoint_of(name, base) || name == base) continue;
      const auto full = (dir / name).string();
      if (std::none_of(found.begin(), found.end(), [&](const auto& k) { return k.path == full; }))
        scanned.push_back({full, mtime_of(entry.path()).value_or(0)});
    }
    for (auto& s : scanned) found.push_back(std::move(s));
    // Oldest first, ties in the order found: std::list's merge sort is stable, and unlike
    // std::stable_sort it takes no std::get_temporary_buffer (deprecated; an error under clang 19).
    std::list<kept_checkpoint> by_time(std::make_move_iterator(found.begin()), std::make_move_iterator(found.end()));
    by_time.sort([](const auto& a, const auto& b) { return a.timestamp < b.timestamp; });
    found.assign(std::make_move_iterator(by_time.begin()), std::make_move_iterator(by_time.end()));
    // A saver that moves to another directory rotates that directory's checkpoints only;
    // a saver that keeps every checkpoint lists none.
    if (rotating()) kept_ = std::move(found);
  }

  // TensorFlow's order (Saver.save): record the new checkpoint (rotation moves the oldest
  // beyond max_to_keep to the deletions pending), write the state file, and only then
  // delete. A failed state write leaves the deletions pending for the next successful one,
  // and says that the checkpoint, complete on disk, is not listed.
  void after_save(const std::filesystem::path& dir, const std::filesystem::path& path) {
    const auto p = path.string();
    const double saved_at = now();
    if (rotating()) {
      std::erase_if(kept_, [&](const auto& k) { return k.path == p; });
      kept_.push_back({p, saved_at});
      while (kept_.size() > *options_.max_to_keep) {
        const auto oldest = kept_.front();
        kept_.erase(kept_.begin());
        if (oldest.timestamp > next_keep_time_) {
          next_keep_time_ += keep_period();
          continue;  // preserved: it leaves the list, not the disk
        }
        pending_delete_.push_back(oldest.path);
      }
    }
    std::erase(pending_delete_, p);  // saved again under a name that was to be deleted
    checkpoint_state state;
    state.model_checkpoint_path = path.filename().string();
    // Checkpoints in the directory of the state file, oldest first; the latest is the last
    // (TensorFlow adds it when the saver lists none).
    for (const auto& k : kept_) {
      const std::filesystem::path kp(k.path);
      if (kp.parent_path() != path.parent_path() || k.path == p) continue;
      state.all_model_checkpoint_paths.push_back(kp.filename().string());
      state.all_model_checkpoint_timestamps.push_back(k.timestamp);
    }
    state.all_model_checkpoint_paths.push_back(state.model_checkpoint_path);
    state.all_model_checkpoint_timestamps.push_back(saved_at);
    state.last_preserved_timestamp = next_keep_time_ - keep_period();
    try {
      update_checkpoint_state(dir, state, options_.latest_filename);
    } catch (const error& e) {
      rethrow_as(e, "Checkpoint " + p + " was written, but it is not listed in the state file " +
                        (dir / options_.latest_filename).string() +
                        " (latest_checkpoint does not return it), which could not be written: " + e.message() +
                        (pending_delete_.empty() ? std::string()
                                                 : ". The checkpoints that rotation removes from the list (" +
                                                       join(pending_delete_) +
                                                       ") are deleted after the next state file is written"));
    }
    // Deleting needs no fsync: the durable state file no longer lists these files, and a
    // deletion a crash undoes is redone by the next run's scan of the directory.
    for (const auto& d : std::exchange(pending_delete_, {})) ::unlink(d.c_str());
  }

  // Throws an error of e's code with another message.
  [[noreturn]] static void rethrow_as(const error& e, const std::string& message) {
    switch (e.code()) {
      case error_code::invalid_argument: throw invalid_argument_error(message);
      case error_code::not_found: throw not_found_error(message);
      case error_code::failed_precondition: throw failed_precondition_error(message);
      case error_code::data_loss: throw data_loss_error(message);
      default: throw unknown_error(message);
    }
  }

  double first_keep_time() const { return now() + keep_period(); }

  saver_options options_{};
  std::vector<kept_checkpoint> kept_;
  std::vector<std::string> pending_delete_;
  std::optional<std::filesystem::path> recovered_dir_;
  bool list_given_ = false;
  // The first checkpoint saved after this time is preserved (keep_checkpoint_every_n_hours);
  // one period after the saver is made, as TensorFlow.
  double next_keep_time_ = first_keep_time();
};

saver() -> saver<all_variables>;
saver(saver_options) -> saver<all_variables>;
// The general guide: leading options (a saver_options value) are skipped by a partial specialization,
// not by a constraint, because clang substitutes a guide's result before checking its
// constraints and would meet the options in entries_of_arg's static_assert.
template <class A0, class... A>
saver(A0, A...) -> saver<typename detail::guided_entries<A0, A...>::type>;
// Options given as a braced list, `saver({.reshape = true}, v)`, which A0 cannot deduce.
template <class... A>
saver(saver_options, A...) -> saver<detail::entries_t<A...>>;

// --- in-memory snapshots ----------------------------------------------------------------------------

/// A copy of every variable of a session (value and initialized flag), restorable without
/// touching disk: the early-stopping pattern. `auto best = train::snapshot(sess); ...
/// best.restore(sess);`
template <class Session>
class variables_snapshot {
  template <class L>
  struct storage_impl;
  template <class... V>
  struct storage_impl<mp::mp_list<V...>> {
    using type = std::tuple<std::remove_cvref_t<decltype(std::declval<Session&>().template slot<V>())>...>;
  };
  using storage = typename storage_impl<typename Session::variables>::type;

 public:
  explicit variables_snapshot(const Session& sess) : values_(std::make_unique<storage>()) { take(sess); }

  /// Copies the session's variables into the snapshot again.
  void take(const Session& sess) {
    mp::mp_for_each<mp::mp_iota_c<mp::mp_size<typename Session::variables>::value>>([&](auto i) {
      using V = mp::mp_at_c<typename Session::variables, decltype(i)::value>;
      std::get<decltype(i)::value>(*values_) = sess.template slot<V>();
    });
  }
  /// Writes the snapshot back into the session's variables.
  void restore(Session& sess) const {
    mp::mp_for_each<mp::mp_iota_c<mp::mp_size<typename Session::variables>::value>>([&](auto i) {
      using V = mp::mp_at_c<typename Session::variables, decltype(i)::value>;
      sess.template slot<V>() = std::get<decltype(i)::value>(*values_);
    });
  }

 private:
  std::unique_ptr<storage> values_;
};

/// A snapshot of every variable of `sess`.
template <class Session>
variables_snapshot<Session> snapshot(const Session& sess) {
  return variables_snapshot<Session>(sess);
}

}  // namespace typeflow::train
