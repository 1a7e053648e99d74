#pragma once
// Sets an environment variable for one scope (the tests run in-process, so a
// variable left set would change every later test).
#include <cstdlib>
#include <string>

namespace evalcli::test {

class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value) : name_(name) { ::setenv(name, value.c_str(), 1); }
  ~ScopedEnv() { ::unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
};

}  // namespace evalcli::test
