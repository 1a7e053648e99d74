#pragma once
// Runs the built evalcli binary (EVALCLI_BINARY) in a child process, for what
// an in-process run_cli cannot show: what reaches a real standard output
// (/dev/full, a closed descriptor, a pipe without reader), signals, memory
// limits and environment variables read once per process.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace evalcli::test {

struct ChildOptions {
  std::string binary = EVALCLI_BINARY;  // the program run (a copy of evalcli elsewhere, say)
  std::map<std::string, std::string> env;  // set in the child on top of the test's environment
  enum class Stdout { pipe, file, closed, broken_pipe } stdout_kind = Stdout::pipe;
  std::string stdout_path;         // Stdout::file: opened for writing (e.g. /dev/full)
  rlim_t address_space = 0;        // > 0: RLIMIT_AS of the child (ulimit -v)
  std::string stdin_path = "/dev/null";
  // Called in the parent with the child's pid once it runs (e.g. to signal it).
  std::function<void(pid_t)> while_running;
};

struct ChildResult {
  int exit_code = -1;  // when it exited
  int signal = 0;      // when a signal killed it
  std::string out;
  std::string err;
};

namespace detail {

inline void read_available(int& fd, std::string& into) {
  char buffer[1 << 16];
  const ssize_t n = ::read(fd, buffer, sizeof buffer);
  if (n > 0) {
    into.append(buffer, static_cast<std::size_t>(n));
  } else if (n == 0 || errno != EINTR) {
    ::close(fd);
    fd = -1;
  }
}

}  // namespace detail

inline ChildResult run_binary(const std::vector<std::string>& args, const ChildOptions& options = {}) {
  int out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1};
  if (::pipe(out_pipe) != 0 || ::pipe(err_pipe) != 0) return {};
  // A pipe whose reader is gone before the child starts: its writes fail with EPIPE.
  if (options.stdout_kind == ChildOptions::Stdout::broken_pipe) ::close(out_pipe[0]);
  // argv and the environment are built before fork: the child of a
  // multithreaded process may only make async-signal-safe calls.
  std::string binary = options.binary;
  std::vector<std::string> arg_copies = args;
  std::vector<char*> argv = {binary.data()};
  for (auto& arg : arg_copies) argv.push_back(arg.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_strings;
  for (char** entry = environ; *entry != nullptr; ++entry) {
    const std::string text = *entry;
    if (options.env.count(text.substr(0, text.find('='))) == 0) env_strings.push_back(text);
  }
  for (const auto& [name, value] : options.env) env_strings.push_back(name + "=" + value);
  std::vector<char*> envp;
  for (auto& text : env_strings) envp.push_back(text.data());
  envp.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    if (options.address_space > 0) {
      const rlimit limit{options.address_space, options.address_space};
      ::setrlimit(RLIMIT_AS, &limit);
    }
    ::signal(SIGINT, SIG_DFL);  // not inherited ignored from a background shell
    ::signal(SIGPIPE, SIG_DFL);
    const int in = ::open(options.stdin_path.c_str(), O_RDONLY);
    ::dup2(in, STDIN_FILENO);
    switch (options.stdout_kind) {
      case ChildOptions::Stdout::pipe:
      case ChildOptions::Stdout::broken_pipe: ::dup2(out_pipe[1], STDOUT_FILENO); break;
      case ChildOptions::Stdout::file: ::dup2(::open(options.stdout_path.c_str(), O_WRONLY), STDOUT_FILENO); break;
      case ChildOptions::Stdout::closed: ::close(STDOUT_FILENO); break;
    }
    ::dup2(err_pipe[1], STDERR_FILENO);
    for (int fd = 3; fd < 256; ++fd) ::close(fd);
    ::execve(argv[0], argv.data(), envp.data());
    ::_exit(127);
  }
  ::close(out_pipe[1]);
  ::close(err_pipe[1]);
  if (options.stdout_kind == ChildOptions::Stdout::broken_pipe) out_pipe[0] = -1;
  if (options.while_running) options.while_running(pid);
  ChildResult result;
  int out_fd = out_pipe[0], err_fd = err_pipe[0];
  while (out_fd >= 0 || err_fd >= 0) {
    pollfd fds[2] = {{out_fd, POLLIN, 0}, {err_fd, POLLIN, 0}};
    if (::poll(fds, 2, -1) < 0) continue;
    if (out_fd >= 0 && fds[0].revents != 0) detail::read_available(out_fd, result.out);
    if (err_fd >= 0 && fds[1].revents != 0) detail::read_available(err_fd, result.err);
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

}  // namespace evalcli::test
