// A scalar key that fills one member (testbench_keys.cpp: field(&MachineConfig::latency, row)):
// the row names the member, its type and bounds, its meaning; the rest comes from the member.
// Reading the value (an integer within the row's bounds, a boolean, a string, one of the row's
// choices), its value as it ran, the machine's quantity of the statistics and Python's machine
// view, and the reference's default (the member's initial value) are derived, so that a plain
// key is one row and its name is the one name of its quantity.
#pragma once

#include <concepts>
#include <string>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "testbench/input/testbench_schema.hpp"

namespace mmsim {

// Where a member's owner lies: in the testbench being read, in the testbench as it ran, and in
// the machine as it ran (a member of the testbench alone is not a quantity of the machine).
template <class Owner>
struct FieldOwner;

template <>
struct FieldOwner<Testbench> {
  static Testbench& in(Testbench& tb) { return tb; }
  static const Testbench& in(const ResolvedView& r) { return r.testbench; }
};

template <>
struct FieldOwner<MachineConfig> {
  static MachineConfig& in(Testbench& tb) { return tb.machine; }
  static const MachineConfig& in(const ResolvedView& r) { return r.machine; }
  static const MachineConfig& in(const MachineConfig& m) { return m; }
};

template <>
struct FieldOwner<SharedMemoryConfig> {
  static SharedMemoryConfig& in(Testbench& tb) { return tb.machine.shared; }
  static const SharedMemoryConfig& in(const ResolvedView& r) { return r.machine.shared; }
  static const SharedMemoryConfig& in(const MachineConfig& m) { return m.shared; }
};

// How a member's type reads from its key and shows as it ran and in the reference.
template <class T>
struct FieldValue;

template <std::unsigned_integral T>
requires(!std::same_as<T, bool>) struct FieldValue<T> {
  static T read(const KeyValue& at) { return static_cast<T>(at.integer()); }
  static nlohmann::ordered_json shown(T value) { return value; }
  static std::string text(T value) { return std::to_string(value); }
};

template <>
struct FieldValue<bool> {
  static bool read(const KeyValue& at) { return at.boolean(); }
  static nlohmann::ordered_json shown(bool value) { return value; }
  static std::string text(bool value) { return value ? "`true`" : "`false`"; }
};

template <>
struct FieldValue<std::string> {
  static std::string read(const KeyValue& at) {
    return at.key().type.kind == KeyType::Kind::choice ? at.choice() : at.string();
  }
  static nlohmann::ordered_json shown(const std::string& value) { return value; }
  static std::string text(const std::string& value) { return "`" + value + "`"; }
};

template <>
struct FieldValue<WriteConflict> {
  static WriteConflict read(const KeyValue& at) { return *write_conflict_from_string(at.choice()); }
  static nlohmann::ordered_json shown(WriteConflict value) { return to_string(value); }
  static std::string text(WriteConflict value) { return "`" + std::string(to_string(value)) + "`"; }
};

// Whether a field's key is written in the testbench as it ran, given the run and whether its
// value is the member's default.
using ShownWhen = bool (*)(const ResolvedView& r, bool at_default);
inline bool always(const ResolvedView&, bool) { return true; }
// Left out at its default, so that a testbench written before the key reads alike.
inline bool unless_default(const ResolvedView&, bool at_default) { return !at_default; }

// `row` (its path, type, table and meaning) made a key that fills `member`: what the row sets
// itself (a load with more to do, a value as it ran that the member alone does not give, a
// default the program decides) stays as the row says.
template <class Owner, class T>
TestbenchKey field(T Owner::*member, TestbenchKey row, ShownWhen shown = always) {
  using Value = FieldValue<T>;
  const T initial = Owner{}.*member;
  if (row.default_text.empty() && !row.required) row.default_text = Value::text(initial);
  if (!row.load)
    row.load = [member](const KeyValue& at, Testbench& tb) {
      FieldOwner<Owner>::in(tb).*member = Value::read(at);
    };
  if (!row.resolved)
    row.resolved = [member, shown, initial](const ResolvedView& r) -> ResolvedValue {
      const T& value = FieldOwner<Owner>::in(r).*member;
      if (!shown(r, value == initial)) return std::nullopt;
      return Value::shown(value);
    };
  if constexpr (!std::is_same_v<Owner, Testbench>)
    if (!row.quantity)
      row.quantity = [member](const MachineConfig& m) -> nlohmann::ordered_json {
        return Value::shown(FieldOwner<Owner>::in(m).*member);
      };
  return row;
}

}  // namespace mmsim
