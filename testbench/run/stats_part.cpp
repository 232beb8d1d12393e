// The statistics JSON (--stats, outputs.stats: docs/statistics.md), to a file, or to standard
// output as one line (`-`) once every file is in place.
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>

#include "testbench/run/output_part.hpp"
#include "testbench/run/stats_json.hpp"

namespace mmsim {
namespace {

const OutputOptions kOptions{.file = "--stats"};

// The statistics as JSON text: names and paths may hold bytes that are not UTF-8 (file names
// are bytes), and get U+FFFD in their place.
std::string stats_text(const RunOutcome& outcome, int indent) {
  return stats_json(outcome).dump(indent, ' ', false, nlohmann::json::error_handler_t::replace) +
         "\n";
}

class StatsPart final : public OutputPart {
 public:
  explicit StatsPart(NamedFile file) : file_(std::move(file)) {}

  std::vector<NamedFile> files() const override {
    if (standard_output()) return {};
    return {file_};
  }
  void open() override {
    if (!standard_output()) pending_.emplace(file_.path, file_.where);
  }
  void render(const RunOutcome& outcome) override {
    if (pending_) pending_->write(stats_text(outcome, 2));
  }
  void commit(RunOutcome& outcome) override {
    if (pending_) pending_->commit();
    outcome.written.push_back(
        {"statistics", standard_output() ? "standard output" : file_.path, standard_output()});
  }
  // Every byte, or InputError at where the statistics were asked for.
  void write_standard_output(const RunOutcome& outcome) override {
    if (!standard_output()) return;
    const std::string text = stats_text(outcome, -1);
    std::size_t written = 0;
    while (written < text.size()) {
      const ssize_t n = ::write(STDOUT_FILENO, text.data() + written, text.size() - written);
      if (n < 0 && errno == EINTR) continue;
      if (n <= 0)
        throw InputError(file_.where,
                         std::string("cannot write the statistics to standard output: ") +
                             std::strerror(n < 0 ? errno : ENOSPC));
      written += static_cast<std::size_t>(n);
    }
  }

 private:
  bool standard_output() const { return file_.path == kStandardOutput; }

  NamedFile file_;
  std::optional<PendingFile> pending_;
};

void add_options(CLI::App& run, OutputRequest& request) {
  add_file_option(run, kOptions.file, request,
                  "write the statistics (JSON) to this file; - writes them to standard output as "
                  "one line (the report goes to standard error)");
}

std::unique_ptr<OutputPart> make(const PartContext& context) {
  const AskedOutput asked = context.asked(kOptions);
  if (asked.file().path.empty()) return nullptr;
  return std::make_unique<StatsPart>(asked.file());
}

}  // namespace

OutputPartInfo stats_part() {
  return {.name = "stats",
          .folder_file = "stats.json",
          .always_in_folder = true,
          .add_options = add_options,
          .make = make};
}

}  // namespace mmsim
