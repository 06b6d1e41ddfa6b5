// read_csv: typed columns as tf.data.experimental.CsvDataset reads them (the cases of
// TensorFlow's csv_dataset_test.py, ported by name at the end) and bad records reported with
// file, line and column.
#include <doctest/doctest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include <xtensor/xarray.hpp>

#include <typeflow/data/readers/csv.hpp>

#include "../support/allocation_counter.hpp"

namespace tf = typeflow;
namespace data = typeflow::data;

namespace {

template <class F>
std::string invalid_of(F&& f) {
  try {
    f();
  } catch (const tf::invalid_argument_error& e) {
    return e.what();
  } catch (const std::exception& e) {
    FAIL("another exception: " << e.what());
  }
  FAIL("no exception");
  return {};
}

}  // namespace

TEST_CASE("CSV: required fields of every type (testCsvDataset_requiredFields)") {
  const auto t = data::read_csv<std::int32_t, std::int64_t, float, double, std::string>(
      "1,2,3,4,a\n5,6,7,8,b\n", "in.csv");
  CHECK(t.rows == 2);
  CHECK(std::get<0>(t.columns) == xt::xarray<std::int32_t>{1, 5});
  CHECK(std::get<1>(t.columns) == xt::xarray<std::int64_t>{2, 6});
  CHECK(std::get<2>(t.columns) == xt::xarray<float>{3, 7});
  CHECK(std::get<3>(t.columns) == xt::xarray<double>{4, 8});
  CHECK(std::get<4>(t.columns) == std::vector<std::string>{"a", "b"});
  CHECK(t.names == std::vector<std::string>{"column0", "column1", "column2", "column3", "column4"});
}

TEST_CASE("CSV: record defaults fill empty fields and na_value (testCsvDataset_withEmptyFields, withNaValue)") {
  const data::csv_defaults<std::int64_t, float, std::string> defaults{std::int64_t{-1}, 0.5f, std::string("?")};
  const auto t = data::read_csv<std::int64_t, float, std::string>(",,\n7,NA,x\n", "in.csv", {.na_value = "NA"}, defaults);
  CHECK(std::get<0>(t.columns) == xt::xarray<std::int64_t>{-1, 7});
  CHECK(std::get<1>(t.columns) == xt::xarray<float>{0.5f, 0.5f});
  CHECK(std::get<2>(t.columns) == std::vector<std::string>{"?", "x"});
  // A column without a default requires its value.
  const auto m = invalid_of([] { data::read_csv<std::int64_t, float>("1,2\n3,\n", "in.csv"); });
  CHECK(m == "InvalidArgument: in.csv:2: column 1 ('column1'): a value is required (no record default) but the field is empty");
}

TEST_CASE("CSV: quoted fields, with delimiters, quotes and line breaks (testCsvDataset_withQuoted)") {
  const auto t = data::read_csv<std::string, std::int32_t>(
      "\"a,b\",1\n\"say \"\"hi\"\"\",2\n\"two\nlines\",3\n\"\",4\n", "in.csv", {}, {std::string("empty"), std::nullopt});
  CHECK(std::get<0>(t.columns) == std::vector<std::string>{"a,b", "say \"hi\"", "two\nlines", "empty"});
  CHECK(std::get<1>(t.columns) == xt::xarray<std::int32_t>{1, 2, 3, 4});
  // The line of a bad record counts the line breaks inside quotes.
  CHECK(invalid_of([] { data::read_csv<std::string, std::int32_t>("\"x\ny\",1\nz,q\n", "q.csv"); }) ==
        "InvalidArgument: q.csv:3: column 1 ('column1'): 'q' cannot be parsed as int32");
  CHECK(invalid_of([] { data::read_csv<std::string>("\"open\n", "q.csv"); }) ==
        "InvalidArgument: q.csv:1: column 0 ('column0'): a quoted field is not closed before the end of the file");
  CHECK(invalid_of([] { data::read_csv<std::string>("\"a\"b\n", "q.csv"); }).find("follows the closing quote") !=
        std::string::npos);
  // Without quote handling, quotes are data.
  const auto raw = data::read_csv<std::string>("\"a\"\n", "in.csv", {.use_quote_delim = false});
  CHECK(std::get<0>(raw.columns) == std::vector<std::string>{"\"a\""});
}

TEST_CASE("CSV: header, select_cols and select_columns (testCsvDataset_withSelectCols, make_csv_dataset)") {
  const std::string text = "id,price,name,qty\n1,2.5,apple,3\n2,0.25,pear,4\r\n\n3,1e3,fig,5";
  const auto by_index = data::read_csv<std::int64_t, std::string>(text, "s.csv", {.header = true, .select_cols = {0, 2}});
  CHECK(by_index.names == std::vector<std::string>{"id", "name"});
  CHECK(std::get<0>(by_index.columns) == xt::xarray<std::int64_t>{1, 2, 3});
  CHECK(std::get<1>(by_index.columns) == std::vector<std::string>{"apple", "pear", "fig"});
  const auto by_name =
      data::read_csv<double, std::int32_t>(text, "s.csv", {.header = true, .select_columns = {"price", "qty"}});
  CHECK(std::get<0>(by_name.columns) == xt::xarray<double>{2.5, 0.25, 1000.0});
  CHECK(std::get<1>(by_name.columns) == xt::xarray<std::int32_t>{3, 4, 5});
  // Selecting without a header: the first record gives the field count.
  const auto no_header = data::read_csv<float>("9,8,7\n6,5,4\n", "s.csv", {.select_cols = {2}});
  CHECK(std::get<0>(no_header.columns) == xt::xarray<float>{7, 4});
  CHECK(invalid_of([&] { data::read_csv<double>(text, "s.csv", {.header = true, .select_columns = {"cost"}}); }) ==
        "InvalidArgument: s.csv: no column named 'cost' in the header");
  CHECK(invalid_of([&] { data::read_csv<double, double>(text, "s.csv", {.header = true, .select_cols = {2, 1}}); })
            .find("increasing order") != std::string::npos);
  CHECK(invalid_of([&] { data::read_csv<double>(text, "s.csv", {.header = true}); })
            .find("the header has 4 columns, 1 column types are given") != std::string::npos);
}

TEST_CASE("CSV: another delimiter (testCsvDataset_withFieldDelim)") {
  const auto t = data::read_csv<std::int32_t, std::string>("1|a b\n2|c\n", "d.csv", {.field_delim = '|'});
  CHECK(std::get<0>(t.columns) == xt::xarray<std::int32_t>{1, 2});
  CHECK(std::get<1>(t.columns) == std::vector<std::string>{"a b", "c"});
}

TEST_CASE("CSV: bad records name the file, the line, the column and what is wrong") {
  CHECK(invalid_of([] { data::read_csv<std::int32_t, float>("1,2\n3,4,5\n", "bad.csv"); }) ==
        "InvalidArgument: bad.csv:2: column 2: expected 2 fields, the record has 3");
  CHECK(invalid_of([] { data::read_csv<std::int32_t, float>("1,2\n3\n", "bad.csv"); }) ==
        "InvalidArgument: bad.csv:2: column 1 ('column1'): expected 2 fields, the record has 1");
  CHECK(invalid_of([] { data::read_csv<std::int32_t, float>("1,2\n3,x4\n", "bad.csv"); }) ==
        "InvalidArgument: bad.csv:2: column 1 ('column1'): 'x4' cannot be parsed as float32");
  CHECK(invalid_of([] { data::read_csv<std::int32_t>("1\n2147483648\n", "bad.csv"); }) ==
        "InvalidArgument: bad.csv:2: column 0 ('column0'): '2147483648' is an integer out of the range of int32");
  CHECK(invalid_of([] { data::read_csv<float>("1e39\n", "bad.csv"); }) ==
        "InvalidArgument: bad.csv:1: column 0 ('column0'): '1e39' is out of the range of float32");
  CHECK(invalid_of([] { data::read_csv<std::int64_t>("1.5\n", "bad.csv"); }).find("cannot be parsed as int64") !=
        std::string::npos);
  CHECK(invalid_of([] { data::read_csv<std::int64_t>("a\"b\n", "bad.csv"); }).find("a quote inside an unquoted field") !=
        std::string::npos);
  // Numbers as NumPy and TensorFlow accept them: signs, exponents, inf and nan.
  const auto t = data::read_csv<double, std::int64_t>("+1.5,-3\n-2e-3,+4\ninf,0\nnan,1\n", "ok.csv");
  CHECK(std::isnan(std::get<0>(t.columns)(3)));
  CHECK(std::get<0>(t.columns)(0) == 1.5);
  CHECK(std::get<0>(t.columns)(1) == -2e-3);
  CHECK(std::isinf(std::get<0>(t.columns)(2)));
  CHECK(std::get<1>(t.columns) == xt::xarray<std::int64_t>{-3, 4, 0, 1});
}

TEST_CASE("CSV: a file, and errors naming its path") {
  const auto path = std::filesystem::temp_directory_path() / "typeflow_data_test.csv";
  {
    std::ofstream f(path);
    f << "x,y\n1,2\n3,four\n";
  }
  const auto m = invalid_of([&] { data::read_csv<float, float>(path, {.header = true}); });
  CHECK(m == "InvalidArgument: " + path.string() + ":3: column 1 ('y'): 'four' cannot be parsed as float32");
  {
    std::ofstream f(path);
    f << "x,y\n1,2\n3,4\n";
  }
  const auto t = data::read_csv<float, float>(path, {.header = true});
  CHECK(std::get<1>(t.columns) == xt::xarray<float>{2, 4});
  std::filesystem::remove(path);
  CHECK_THROWS_AS(data::read_csv<float>(path), tf::not_found_error);
}

TEST_CASE("CSV: no allocation per field for numeric columns, quoted fields included") {
  std::string text;
  for (int i = 0; i < 20000; ++i) text += std::to_string(i) + ",\"" + std::to_string(i * 0.5) + "\",-7e3\n";
  const long before = typeflow_test::allocation_count();
  const auto t = data::read_csv<std::int64_t, double, float>(text, "n.csv");
  const long allocations = typeflow_test::allocation_count() - before;
  CHECK(t.rows == 20000);
  CHECK(std::get<1>(t.columns)(19999) == 9999.5);
  CHECK(allocations < 150);  // the columns' growth (logarithmic) and the result, not 60,000 fields
}

// The cases of TensorFlow's csv_dataset_test.py (tensorflow/python/data/experimental/
// kernel_tests), by their names there; each checks the values, or the error, CsvDataset gives.
TEST_CASE("CSV: TensorFlow's CsvDataset cases") {
  using i32 = std::int32_t;
  SUBCASE("testCsvDataset_withEmptyFields") {
    const auto t = data::read_csv<i32, i32, i32, i32>(",,,\n1,1,1,\n,2,2,2", "t.csv", {}, {0, 0, 0, 0});
    CHECK(std::get<0>(t.columns) == xt::xarray<i32>{0, 1, 0});
    CHECK(std::get<3>(t.columns) == xt::xarray<i32>{0, 0, 2});
  }
  SUBCASE("testCsvDataset_errWithUnquotedQuotes, withNoQuoteDelimAndUnquotedQuotes") {
    CHECK(invalid_of([] { data::read_csv<std::string, std::string, std::string>("1,2\"3,4", "t.csv"); })
              .find("a quote inside an unquoted field") != std::string::npos);
    const auto t = data::read_csv<std::string, std::string, std::string>("1,2\"3,4", "t.csv", {.use_quote_delim = false});
    CHECK(std::get<1>(t.columns) == std::vector<std::string>{"2\"3"});
  }
  SUBCASE("testCsvDataset_withUseQuoteDelimFalse") {
    const auto t = data::read_csv<std::string, std::string, std::string, std::string>("1,2,\"3,4\"\n\"5,6\",7,8", "t.csv",
                                                                                      {.use_quote_delim = false});
    CHECK(std::get<2>(t.columns) == std::vector<std::string>{"\"3", "7"});
    CHECK(std::get<3>(t.columns) == std::vector<std::string>{"4\"", "8"});
  }
  SUBCASE("testCsvDataset_withNaValue") {
    const auto t = data::read_csv<i32, i32, i32, i32>("1,NA,3,4\nNA,6,7,8", "t.csv", {.na_value = "NA"}, {0, 0, 0, 0});
    CHECK(std::get<0>(t.columns) == xt::xarray<i32>{1, 0});
    CHECK(std::get<1>(t.columns) == xt::xarray<i32>{0, 6});
  }
  SUBCASE("testCsvDataset_withSelectCols, withSelectColsTooHigh") {
    const auto t = data::read_csv<std::string, std::string>("1,2,3,4\n\"5\",\"6\",\"7\",\"8\"", "t.csv", {.select_cols = {1, 2}});
    CHECK(std::get<0>(t.columns) == std::vector<std::string>{"2", "6"});
    CHECK(std::get<1>(t.columns) == std::vector<std::string>{"3", "7"});
    CHECK(invalid_of([] { data::read_csv<i32, i32>("1,2,3,4\n5,6,7,8", "t.csv", {.select_cols = {3, 4}}); })
              .find("t.csv:1: column 4 ('column4'): is selected, but the record has 4 fields") != std::string::npos);
  }
  SUBCASE("testCsvDataset_withOneCol, withOneColAndQuotes") {
    const auto t = data::read_csv<std::string>("0\n\"\"\n2", "t.csv", {}, {std::string("NA")});
    CHECK(std::get<0>(t.columns) == std::vector<std::string>{"0", "NA", "2"});
    const auto q = data::read_csv<std::string>("\"0\"\n\"1\"\n\"2\"", "t.csv");
    CHECK(std::get<0>(q.columns) == std::vector<std::string>{"0", "1", "2"});
  }
  SUBCASE("testCsvDataset_withLeadingAndTrailingSpaces") {
    const auto t = data::read_csv<float, float, float, float>("0, 1, 2 , 3", "t.csv");
    CHECK(std::get<2>(t.columns) == xt::xarray<float>{2.0f});
    CHECK(std::get<3>(t.columns) == xt::xarray<float>{3.0f});
  }
  SUBCASE("testCsvDataset_errorWithMissingDefault, errorWithFewerDefaultsThanFields, errorWithMoreDefaultsThanFields") {
    CHECK(invalid_of([] { data::read_csv<float, float>("0,", "t.csv"); }).find("column 1 ('column1'): a value is required") !=
          std::string::npos);
    CHECK(invalid_of([] { data::read_csv<float, float>("0,1,2,3", "t.csv"); }).find("expected 2 fields, the record has 4") !=
          std::string::npos);
    CHECK(invalid_of([] { data::read_csv<float, float, float, float, float>("0,1,2,3", "t.csv"); })
              .find("expected 5 fields, the record has 4") != std::string::npos);
  }
  SUBCASE("testCsvDataset_withHeader, withHeaderAndNoRecords, errorWithHeaderEmptyFile, withEmptyFile") {
    const auto t = data::read_csv<i32, i32>("col1,col2\n1,2", "t.csv", {.header = true});
    CHECK(t.names == std::vector<std::string>{"col1", "col2"});
    CHECK(std::get<1>(t.columns) == xt::xarray<i32>{2});
    CHECK(data::read_csv<i32, i32>("col1,col2", "t.csv", {.header = true}).rows == 0);
    CHECK(invalid_of([] { data::read_csv<i32, i32>("", "t.csv", {.header = true}); }).find("no header record") !=
          std::string::npos);
    CHECK(data::read_csv<std::string, std::string>("", "t.csv").rows == 0);
  }
  SUBCASE("testCsvDataset_withNewLine, withMultipleNewLines, withNewLineInUnselectedCol, withEscapedQuotes") {
    const auto t = data::read_csv<std::string, std::string, std::string, std::string>(
        "a,\"b\n\nx\",\"\"\"c\"\"\n \n0\",\"d\ne\"\nf,g,h,i", "t.csv");
    CHECK(std::get<1>(t.columns) == std::vector<std::string>{"b\n\nx", "g"});
    CHECK(std::get<2>(t.columns) == std::vector<std::string>{"\"c\"\n \n0", "h"});
    CHECK(std::get<3>(t.columns) == std::vector<std::string>{"d\ne", "i"});
    const auto u = data::read_csv<std::string>("1,\"2\n3\",4\n5,6,7", "t.csv", {.select_cols = {0}});
    CHECK(std::get<0>(u.columns) == std::vector<std::string>{"1", "5"});
    const auto e = data::read_csv<double, double, std::string, double>("1.0,2.1,\"she said: \"\"hello\"\"\",4.3", "t.csv");
    CHECK(std::get<2>(e.columns) == std::vector<std::string>{"she said: \"hello\""});
  }
  SUBCASE("testCsvDataset_errorWithTerminateMidRecord") {
    CHECK(invalid_of([] { data::read_csv<std::string, std::string, std::string, std::string>("a,b,c,\"a", "t.csv"); })
              .find("a quoted field is not closed before the end of the file") != std::string::npos);
  }
  SUBCASE("testCsvDataset_withCR, withCRLF") {
    for (const char* eol : {"\r", "\r\n"}) {
      const std::string text = std::string("abc,def,ghi") + eol + "0,1,2" + eol + ",,";
      const auto t = data::read_csv<std::string, std::string, std::string>(
          text, "t.csv", {}, {std::string("NA"), std::string("NA"), std::string("NA")});
      CHECK(std::get<0>(t.columns) == std::vector<std::string>{"abc", "0", "NA"});
      CHECK(std::get<2>(t.columns) == std::vector<std::string>{"ghi", "2", "NA"});
    }
  }
}
