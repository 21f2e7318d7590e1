// alea's one Expected/Error/Status (alea/expected.hpp): both spellings of a
// failure (`fail("...")` of the statistics engine, `Error{"...", kind}` of the
// runner) make the same value, and the runner's old name is the same type
// (the statistics engine names alea::Expected itself).
#include <alea/expected.hpp>

#include <alea/config/error.hpp>

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <type_traits>

namespace {

static_assert(std::is_same_v<alea::Expected<int>, alea::runner::Expected<int>>);
static_assert(std::is_same_v<alea::runner::Error, alea::Error>);

alea::Expected<int> half(int n) {
  if (n % 2)
    return alea::fail(std::to_string(n) + " is odd");
  return n / 2;
}

TEST(Expected, ValueOrMessage) {
  const auto ok = half(8);
  ASSERT_TRUE(ok);
  EXPECT_TRUE(ok.ok());
  EXPECT_EQ(*ok, 4);
  EXPECT_EQ(ok.value(), 4);
  EXPECT_EQ(ok.error(), ""); // callers may log it unconditionally

  const auto odd = half(7);
  EXPECT_FALSE(odd);
  EXPECT_EQ(odd.error(), "7 is odd");
  EXPECT_EQ(odd.errorKind(), alea::ErrorKind::Failure);
}

TEST(Expected, ErrorKeepsItsKind) {
  alea::Expected<std::string> busy = alea::Error{"campaign locked", alea::ErrorKind::Busy};
  EXPECT_FALSE(busy);
  EXPECT_EQ(busy.error(), "campaign locked");
  EXPECT_EQ(busy.errorKind(), alea::ErrorKind::Busy);
}

TEST(Expected, MoveOnlyValueMovesOut) {
  alea::Expected<std::unique_ptr<int>> p = std::make_unique<int>(3);
  ASSERT_TRUE(p);
  EXPECT_EQ(**p, 3);
  std::unique_ptr<int> taken = *std::move(p);
  ASSERT_TRUE(taken);
  EXPECT_EQ(*taken, 3);
}

TEST(Status, SuccessOrMessage) {
  EXPECT_TRUE(alea::Status::success());
  EXPECT_TRUE(alea::Status());
  const alea::Status failed = alea::fail("disk full");
  EXPECT_FALSE(failed);
  EXPECT_FALSE(failed.ok());
  EXPECT_EQ(failed.error(), "disk full");
}

} // namespace
