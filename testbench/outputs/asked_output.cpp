#include "testbench/outputs/asked_output.hpp"

namespace mmsim {

AskedOutput::AskedOutput(const Testbench& tb, std::string name, const OutputRequest* command_line,
                         const std::string& named_by, OutputOptions options)
    : tb_(tb),
      name_(std::move(name)),
      command_line_(command_line),
      testbench_(nullptr),
      options_(std::move(options)) {
  if (const auto it = tb.outputs.find(name_); it != tb.outputs.end()) testbench_ = &it->second;
  if (command_line_ && !command_line_->file.empty()) {
    file_ = option_output(command_line_->file, named_by.empty() ? options_.file : named_by);
  } else if (testbench_ && !testbench_->file.empty()) {
    const std::string key = "outputs." + name_;
    file_ = {testbench_->file, tb.locate(key + ".file"), "the output of " + key};
  }
  asked_ =
      !file_.path.empty() || (command_line_ && command_line_->on) || (testbench_ && testbench_->on);
}

const std::string& AskedOutput::option(const std::string& key) const {
  if (key == "from") return options_.from;
  if (key == "to") return options_.to;
  if (key == "scopes") return options_.scopes;
  if (key == "limit") return options_.limit;
  return options_.interval;
}

bool AskedOutput::on_command_line(const std::string& key) const {
  if (!command_line_) return false;
  if (key == "from") return command_line_->from.has_value();
  if (key == "to") return command_line_->to.has_value();
  if (key == "scopes") return !command_line_->scopes.empty();
  if (key == "limit") return command_line_->limit.has_value();
  return command_line_->interval.has_value();
}

std::optional<Located<std::uint64_t>> AskedOutput::number(
    std::optional<std::uint64_t> OutputRequest::*field, const std::string& key) const {
  if (command_line_ && command_line_->*field)
    return Located<std::uint64_t>{*(command_line_->*field), {option(key), 0, 0}};
  if (testbench_ && testbench_->*field)
    return Located<std::uint64_t>{*(testbench_->*field),
                                  tb_.locate("outputs." + name_ + "." + key)};
  return std::nullopt;
}

TimeWindow AskedOutput::window() const {
  TimeWindow window;
  if (const auto from = this->from()) window.from = from->value;
  if (const auto to = this->to()) window.to = to->value;
  return window;
}

std::vector<Located<std::string>> AskedOutput::scopes() const {
  std::vector<Located<std::string>> out;
  if (command_line_ && !command_line_->scopes.empty()) {
    for (const std::string& scope : command_line_->scopes)
      out.push_back({scope, {options_.scopes, 0, 0}});
  } else if (testbench_) {
    for (std::size_t i = 0; i < testbench_->scopes.size(); ++i)
      out.push_back({testbench_->scopes[i],
                     tb_.locate("outputs." + name_ + ".scopes[" + std::to_string(i) + "]")});
  }
  return out;
}

void AskedOutput::check() const {
  if (!asked_)
    for (const std::string key : {"from", "to", "scopes", "limit"})
      if (on_command_line(key))
        throw InputError({option(key), 0, 0}, "there is no " + options_.noun +
                                                  " to choose for: give " + options_.file +
                                                  " FILE (or outputs." + name_ + ")");
  const auto first = from();
  const auto last = to();
  if (first && last && first->value > last->value)
    throw InputError(last->where, "the " + options_.noun + "'s window ends at " + options_.unit +
                                      " " + std::to_string(last->value) +
                                      " before it begins (from " + std::to_string(first->value) +
                                      ")");
}

}  // namespace mmsim
