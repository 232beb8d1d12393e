// The testbench as it ran (testbench.yaml in --out-dir's folder: resolved_testbench.hpp), from
// which the run can be made again.
#include <optional>

#include "testbench/run/output_part.hpp"
#include "testbench/run/resolved_testbench.hpp"

namespace mmsim {
namespace {

class ResolvedPart final : public OutputPart {
 public:
  explicit ResolvedPart(NamedFile file) : file_(std::move(file)) {}

  std::vector<NamedFile> files() const override { return {file_}; }
  void open() override { pending_.emplace(file_.path, file_.where); }
  void render(const RunOutcome& outcome) override { pending_->write(yaml_text(outcome.resolved)); }
  void commit(RunOutcome& outcome) override {
    pending_->commit();
    outcome.written.push_back({"testbench as run", file_.path});
  }

 private:
  NamedFile file_;
  std::optional<PendingFile> pending_;
};

std::unique_ptr<OutputPart> make(const PartContext& context) {
  const AskedOutput asked = context.asked({});
  if (asked.file().path.empty()) return nullptr;
  return std::make_unique<ResolvedPart>(asked.file());
}

}  // namespace

OutputPartInfo resolved_part() {
  return {
      .name = "resolved", .folder_file = "testbench.yaml", .always_in_folder = true, .make = make};
}

}  // namespace mmsim
