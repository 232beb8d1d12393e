// JSON written as it goes, without building a document (a timeline of a long run): objects and
// arrays opened and closed, keys and values, commas where they belong. Strings are escaped, and
// bytes that are not UTF-8 (names are bytes) become U+FFFD, as nlohmann::json's
// error_handler_t::replace writes them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace mmsim {

class JsonWriter {
 public:
  // Appends to `out`.
  explicit JsonWriter(std::string& out) : out_(out) {}

  JsonWriter& begin_object();
  // An array whose items each start a line of their own.
  JsonWriter& begin_array(bool item_per_line = false);
  JsonWriter& end();  // the innermost object or array
  JsonWriter& key(std::string_view name);
  JsonWriter& value(std::string_view text);
  JsonWriter& value(const char* text) { return value(std::string_view(text)); }
  JsonWriter& value(std::uint64_t number);
  JsonWriter& value(std::int64_t number);
  JsonWriter& value(unsigned number) { return value(std::uint64_t{number}); }
  // A number with `digits` significant digits ("%.*g").
  JsonWriter& value(double number, int digits);
  // A value written before (a string quoted once and kept).
  JsonWriter& raw(std::string_view json);

  // `text` as a JSON string, quoted.
  static std::string quoted(std::string_view text);

 private:
  struct Level {
    char close;  // '}' or ']'
    bool item_per_line;
    bool empty = true;
  };
  void before_value();

  std::string& out_;
  std::vector<Level> levels_;
  bool after_key_ = false;
};

}  // namespace mmsim
