#pragma once
// EVALCLI_TEST_HAS_ASAN: 1 when the tests are built with AddressSanitizer
// (GCC says __SANITIZE_ADDRESS__, clang __has_feature), whose allocator and
// shadow memory change what memory checks can assert.
#if defined(__SANITIZE_ADDRESS__)
#define EVALCLI_TEST_HAS_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define EVALCLI_TEST_HAS_ASAN 1
#endif
#endif
#ifndef EVALCLI_TEST_HAS_ASAN
#define EVALCLI_TEST_HAS_ASAN 0
#endif
