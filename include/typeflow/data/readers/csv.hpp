// typeflow/data/readers/csv.hpp — CSV files with typed columns, as
// tf.data.experimental.CsvDataset / make_csv_dataset read them, into column arrays.
//
//   auto t = typeflow::data::read_csv<float, std::int64_t, std::string>(
//       "data.csv", {.header = true, .na_value = "NA"},
//       {std::nullopt, std::int64_t{0}, std::string("?")});       // record_defaults
//   const xt::xarray<float>& x = std::get<0>(t.columns);
//   const std::vector<std::string>& s = std::get<2>(t.columns);
//
// The column types are the template arguments: float, double, std::int32_t, std::int64_t
// (xt::xarray columns) and std::string (a std::vector<std::string> column). Quoted fields
// ("a, b", with "" for a quote, line breaks allowed inside) are read as RFC 4180 says. A field
// that is empty or equal to na_value takes its column's record default; a column without a
// default requires a value. Blank lines are skipped.
//
// Every record must have the same number of fields: the header's, else the number of
// columns, or with a selection the first record's. A bad record is InvalidArgument
// "<file>:<line>: column <n> ('<name>'): <what is wrong>" (n counts from 0 as in select_cols).
// Numbers are parsed with std::from_chars (spaces around them allowed, as in CsvDataset),
// fields are not copied unless quoted with "" inside, and a file is read once into memory:
// no allocation per field of a numeric column.
#pragma once

#include <charconv>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <system_error>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

#include <boost/mp11/algorithm.hpp>
#include <xtensor/xarray.hpp>

#include "typeflow/core/errors.hpp"
#include "typeflow/data/readers/detail/bytes.hpp"

namespace typeflow::data {

/// A column type read_csv reads.
template <class T>
concept csv_type = std::is_same_v<T, float> || std::is_same_v<T, double> || std::is_same_v<T, std::int32_t> ||
                   std::is_same_v<T, std::int64_t> || std::is_same_v<T, std::string>;

/// The options of read_csv, with CsvDataset's and make_csv_dataset's names.
struct csv_options {
  bool header = false;       // the first record names the columns (CsvDataset: header)
  char field_delim = ',';    // CsvDataset: field_delim
  bool use_quote_delim = true;  // '"' quotes fields (CsvDataset: use_quote_delim)
  std::string na_value{};    // a field equal to it is missing (CsvDataset: na_value)
  std::vector<std::size_t> select_cols{};   // the columns read, by index, increasing (CsvDataset)
  std::vector<std::string> select_columns{};  // or by header name, in file order (make_csv_dataset)
};

template <csv_type T>
using csv_column_t = std::conditional_t<std::is_same_v<T, std::string>, std::vector<std::string>, xt::xarray<T>>;

/// What read_csv returns: one column per type, and the columns' names (from the header, or
/// "column<n>").
template <csv_type... Ts>
struct csv_table {
  std::tuple<csv_column_t<Ts>...> columns;
  std::vector<std::string> names;
  std::size_t rows = 0;
};

/// record_defaults: per column, the value of a missing field, or nullopt if it is required.
template <csv_type... Ts>
using csv_defaults = std::tuple<std::optional<Ts>...>;

namespace detail {

template <class T>
constexpr std::string_view csv_type_name() {
  if constexpr (std::is_same_v<T, float>) return "float32";
  else if constexpr (std::is_same_v<T, double>) return "float64";
  else if constexpr (std::is_same_v<T, std::int32_t>) return "int32";
  else if constexpr (std::is_same_v<T, std::int64_t>) return "int64";
  else return "string";
}

// Parses a whole field as T; an empty optional with `why` set when it cannot.
template <class T>
bool csv_parse(std::string_view f, T& out, std::string_view& why) {
  // Leading and trailing spaces around a number are allowed, as in CsvDataset.
  while (!f.empty() && f.front() == ' ') f.remove_prefix(1);
  while (!f.empty() && f.back() == ' ') f.remove_suffix(1);
  if (!f.empty() && f[0] == '+' && f.size() > 1 && f[1] != '-' && f[1] != '+') f.remove_prefix(1);
  const char* end = f.data() + f.size();
  std::from_chars_result r;
  if constexpr (std::is_floating_point_v<T>) r = std::from_chars(f.data(), end, out, std::chars_format::general);
  else r = std::from_chars(f.data(), end, out);
  if (r.ec == std::errc::result_out_of_range) {
    why = std::is_floating_point_v<T> ? "is out of the range of " : "is an integer out of the range of ";
    return false;
  }
  if (r.ec != std::errc() || r.ptr != end) {
    why = "cannot be parsed as ";
    return false;
  }
  return true;
}

template <csv_type... Ts>
class csv_parser {
 public:
  using table = csv_table<Ts...>;
  static constexpr std::size_t width = sizeof...(Ts);

  csv_parser(std::string_view text, std::string_view source, const csv_options& o, const csv_defaults<Ts...>& d)
      : text_(text), source_(source), o_(o), defaults_(d) {}

  table run() {
    table t;
    std::vector<std::string> header;
    if (o_.header) {
      if (text_.empty()) throw invalid_argument_error(std::string(source_) + ": no header record (the file is empty)");
      read_record([&](std::size_t, std::string_view f) { header.emplace_back(f); });
      if (header.empty()) throw invalid_argument_error(std::string(source_) + ": no header record");
      fields_ = header.size();
    }
    plan(header, t.names);
    while (pos_ < text_.size()) {
      const std::size_t line = line_;
      const std::size_t n = read_record([&](std::size_t field, std::string_view f) {
        if (field >= slot_.size()) {
          if (fields_ != 0) return;  // the count is checked below
          slot_.push_back(-1);        // the first record of a selection without a header
        }
        if (slot_[field] >= 0) store(static_cast<std::size_t>(slot_[field]), field, f, line);
      });
      if (n == 0) continue;  // a blank line
      if (fields_ == 0) {
        fields_ = n;
        if (selected_max_ >= n) error(line, selected_max_, "is selected, but the record has " + std::to_string(n) + " fields");
      }
      if (n != fields_)
        error(line, std::min(n, fields_), "expected " + std::to_string(fields_) + " fields, the record has " + std::to_string(n));
      ++t.rows;
    }
    finish(t);
    return t;
  }

 private:
  // Maps each field index to the column it fills (-1: not read).
  void plan(const std::vector<std::string>& header, std::vector<std::string>& names) {
    std::vector<std::size_t> cols = o_.select_cols;
    if (!o_.select_columns.empty()) {
      if (!o_.header) throw invalid_argument_error(std::string(source_) + ": select_columns by name needs header = true");
      if (!cols.empty()) throw invalid_argument_error(std::string(source_) + ": give select_cols or select_columns, not both");
      for (const std::string& name : o_.select_columns) {
        std::size_t i = 0;
        while (i < header.size() && header[i] != name) ++i;
        if (i == header.size()) throw invalid_argument_error(std::string(source_) + ": no column named '" + name + "' in the header");
        cols.push_back(i);
      }
    }
    if (cols.empty()) {
      for (std::size_t i = 0; i < width; ++i) cols.push_back(i);
      if (fields_ == 0) fields_ = width;
      if (fields_ != width)
        throw invalid_argument_error(std::string(source_) + ": the header has " + std::to_string(fields_) + " columns, " +
                                     std::to_string(width) + " column types are given (select the columns to read)");
    }
    if (cols.size() != width)
      throw invalid_argument_error(std::string(source_) + ": " + std::to_string(cols.size()) + " columns selected for " +
                                   std::to_string(width) + " column types");
    for (std::size_t k = 0; k < cols.size(); ++k) {
      if (k > 0 && cols[k] <= cols[k - 1])
        throw invalid_argument_error(std::string(source_) + ": the selected columns must be in increasing order");
      if (fields_ != 0 && cols[k] >= fields_)
        throw invalid_argument_error(std::string(source_) + ": column " + std::to_string(cols[k]) + " is selected, the records have " +
                                     std::to_string(fields_) + " fields");
    }
    selected_max_ = cols.back();
    slot_.assign(std::max(fields_, selected_max_ + 1), -1);
    for (std::size_t k = 0; k < cols.size(); ++k) slot_[cols[k]] = static_cast<int>(k);
    for (std::size_t k = 0; k < cols.size(); ++k)
      names.push_back(cols[k] < header.size() ? header[cols[k]] : "column" + std::to_string(cols[k]));
    names_ = &names;
  }

  [[noreturn]] void error(std::size_t line, std::size_t field, std::string_view what) const {
    std::string m = std::string(source_) + ":" + std::to_string(line) + ": column " + std::to_string(field);
    if (names_ && field < slot_.size() && slot_[field] >= 0) m += " ('" + (*names_)[static_cast<std::size_t>(slot_[field])] + "')";
    throw invalid_argument_error(m + ": " + std::string(what));
  }

  void store(std::size_t k, std::size_t field, std::string_view f, std::size_t line) {
    boost::mp11::mp_with_index<width>(k, [&](auto I) {
      using T = std::tuple_element_t<I, std::tuple<Ts...>>;
      auto& values = std::get<I>(buffers_);
      const bool missing = f.empty() || (!o_.na_value.empty() && f == o_.na_value);
      if (missing) {
        const auto& def = std::get<I>(defaults_);
        if (!def) error(line, field, "a value is required (no record default) but the field is " +
                                         std::string(f.empty() ? "empty" : "na_value"));
        values.push_back(*def);
        return;
      }
      if constexpr (std::is_same_v<T, std::string>) {
        values.emplace_back(f);
      } else {
        T v{};
        std::string_view why;
        if (!csv_parse(f, v, why))
          error(line, field, "'" + std::string(f.substr(0, 64)) + "' " + std::string(why) + std::string(csv_type_name<T>()));
        values.push_back(v);
      }
    });
  }

  void finish(table& t) {
    boost::mp11::mp_for_each<boost::mp11::mp_iota_c<width>>([&](auto I) {
      using T = std::tuple_element_t<I, std::tuple<Ts...>>;
      auto& values = std::get<I>(buffers_);
      if constexpr (std::is_same_v<T, std::string>) {
        std::get<I>(t.columns) = std::move(values);
      } else {
        auto& col = std::get<I>(t.columns);
        col = xt::xarray<T>::from_shape({values.size()});
        std::copy(values.begin(), values.end(), col.begin());
      }
    });
  }

  // Reads one record, calling on_field(index, value) per field; returns the field count (0
  // for a blank line). Fields are views into the text, or into scratch_ when unescaped.
  template <class F>
  std::size_t read_record(F&& on_field) {
    const std::size_t start_line = line_;
    const char delim = o_.field_delim;
    std::size_t field = 0;
    if (pos_ < text_.size() && (text_[pos_] == '\n' || text_[pos_] == '\r')) {
      end_of_line();
      return 0;
    }
    for (;;) {
      std::string_view value;
      if (o_.use_quote_delim && pos_ < text_.size() && text_[pos_] == '"') {
        ++pos_;
        const std::size_t begin = pos_;
        bool escaped = false;
        for (;;) {
          if (pos_ >= text_.size()) error(start_line, field, "a quoted field is not closed before the end of the file");
          const char c = text_[pos_];
          if (c == '"') {
            if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '"') {
              escaped = true;
              pos_ += 2;
              continue;
            }
            break;
          }
          if (c == '\n') ++line_;
          ++pos_;
        }
        value = text_.substr(begin, pos_ - begin);
        ++pos_;  // the closing quote
        if (escaped) {
          scratch_.clear();
          for (std::size_t i = 0; i < value.size(); ++i) {
            scratch_ += value[i];
            if (value[i] == '"') ++i;
          }
          value = scratch_;
        }
        if (pos_ < text_.size() && text_[pos_] != delim && text_[pos_] != '\n' && text_[pos_] != '\r')
          error(start_line, field, "a character follows the closing quote of a quoted field");
      } else {
        const std::size_t begin = pos_;
        while (pos_ < text_.size()) {
          const char c = text_[pos_];
          if (c == delim || c == '\n' || c == '\r') break;
          if (o_.use_quote_delim && c == '"') error(start_line, field, "a quote inside an unquoted field");
          ++pos_;
        }
        value = text_.substr(begin, pos_ - begin);
      }
      on_field(field, value);
      ++field;
      if (pos_ < text_.size() && text_[pos_] == delim) {
        ++pos_;
        continue;
      }
      end_of_line();
      return field;
    }
  }

  void end_of_line() {
    if (pos_ < text_.size() && text_[pos_] == '\r') ++pos_;
    if (pos_ < text_.size() && text_[pos_] == '\n') ++pos_;
    ++line_;
  }

  std::string_view text_;
  std::string_view source_;
  const csv_options& o_;
  const csv_defaults<Ts...>& defaults_;
  std::size_t pos_ = 0;
  std::size_t line_ = 1;
  std::size_t fields_ = 0;  // fields per record; 0 until the first record with a selection
  std::size_t selected_max_ = 0;
  std::vector<int> slot_;
  const std::vector<std::string>* names_ = nullptr;
  std::string scratch_;
  std::tuple<std::vector<Ts>...> buffers_;
};

}  // namespace detail

/// The CSV file at `path`, read into one column per type.
template <csv_type... Ts>
csv_table<Ts...> read_csv(const std::filesystem::path& path, const csv_options& options = {},
                          const csv_defaults<Ts...>& record_defaults = {}) {
  const auto raw = detail::read_file(path, "CSV file");
  const std::string source = path.string();
  return detail::csv_parser<Ts...>(std::string_view(reinterpret_cast<const char*>(raw.data()), raw.size()), source,
                                   options, record_defaults)
      .run();
}

/// The same from text in memory; `source` names it in errors.
template <csv_type... Ts>
csv_table<Ts...> read_csv(std::string_view text, std::string_view source, const csv_options& options = {},
                          const csv_defaults<Ts...>& record_defaults = {}) {
  return detail::csv_parser<Ts...>(text, source, options, record_defaults).run();
}

}  // namespace typeflow::data
