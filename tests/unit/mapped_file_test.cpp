#include "evalcli/io/mapped_file.hpp"

#include <catch2/catch.hpp>
#include <filesystem>
#include <string>

#include "support/test_support.hpp"

using evalcli::io::MappedFile;
using Status = MappedFile::Status;
using Readahead = MappedFile::Readahead;

TEST_CASE("MappedFile maps a whole regular file, either readahead", "[io]") {
  std::string content(100000, 'x');
  content += "end";
  const evalcli::test::TempFile file(content);
  for (const auto readahead : {Readahead::on_demand, Readahead::whole_file}) {
    MappedFile mapped;
    REQUIRE(mapped.open(file.path(), readahead) == Status::mapped);
    CHECK(mapped.bytes() == content);
  }
}

TEST_CASE("MappedFile: an empty file is an empty view, failures say why and leave it empty", "[io]") {
  const evalcli::test::TempFile empty("");
  MappedFile mapped;
  CHECK(mapped.open(empty.path(), Readahead::on_demand) == Status::mapped);
  CHECK(mapped.bytes().empty());

  const evalcli::test::TempFile some("abc");
  REQUIRE(mapped.open(some.path(), Readahead::on_demand) == Status::mapped);
  CHECK(mapped.open(some.path() + ".missing", Readahead::on_demand) == Status::cannot_open);
  CHECK(mapped.bytes().empty());
  const auto directory = std::filesystem::temp_directory_path().string();
  CHECK(mapped.open(directory, Readahead::whole_file) == Status::not_a_regular_file);
  CHECK(mapped.bytes().empty());
}

TEST_CASE("MappedFile moves: the mapping stays valid in its new owner", "[io]") {
  const evalcli::test::TempFile file("hello\n");
  MappedFile first;
  REQUIRE(first.open(file.path(), Readahead::on_demand) == Status::mapped);
  MappedFile second = std::move(first);
  CHECK(second.bytes() == "hello\n");
  CHECK(first.bytes().empty());
}
