// The floor of any metric's CPU: read the hypothesis and reference files in
// 64 KiB blocks, split them into lines and whitespace-separated tokens, and
// count tokens of both and the tokens the two lines share by position (so
// the split is not optimised away). No UTF-8 decoding, no tokenizer, no
// statistics: what every metric must at least do with the same bytes.
// Built and run by bench/floor.sh:  read_split_floor HYP REF
#include <cstdio>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace {

class LineFile {
 public:
  explicit LineFile(const char* path) : file_(std::fopen(path, "rb")) {
    if (file_ == nullptr) {
      std::perror(path);
      std::exit(1);
    }
  }
  ~LineFile() { std::fclose(file_); }
  bool next(std::string& line) {
    line.clear();
    while (true) {
      if (pos_ == end_) {
        end_ = std::fread(block_, 1, sizeof block_, file_);
        pos_ = 0;
        if (end_ == 0) return !line.empty();
      }
      const void* newline = std::memchr(block_ + pos_, '\n', end_ - pos_);
      const std::size_t stop = newline ? static_cast<const char*>(newline) - block_ : end_;
      line.append(block_ + pos_, stop - pos_);
      pos_ = newline ? stop + 1 : stop;
      if (newline) return true;
    }
  }

 private:
  std::FILE* file_;
  char block_[1 << 16];
  std::size_t pos_ = 0, end_ = 0;
};

void split(std::string_view line, std::vector<std::string_view>& tokens) {
  tokens.clear();
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
    if (i > start) tokens.emplace_back(line.data() + start, i - start);
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: read_split_floor HYP REF\n");
    return 2;
  }
  LineFile hyp(argv[1]), ref(argv[2]);
  std::string hyp_line, ref_line;
  std::vector<std::string_view> hyp_tokens, ref_tokens;
  unsigned long long tokens = 0, same = 0;
  while (hyp.next(hyp_line) && ref.next(ref_line)) {
    split(hyp_line, hyp_tokens);
    split(ref_line, ref_tokens);
    tokens += hyp_tokens.size() + ref_tokens.size();
    for (std::size_t i = 0; i < hyp_tokens.size() && i < ref_tokens.size(); ++i) same += hyp_tokens[i] == ref_tokens[i];
  }
  std::printf("%llu tokens, %llu in place\n", tokens, same);
  return 0;
}
