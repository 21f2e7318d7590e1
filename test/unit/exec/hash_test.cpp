// SHA-256 against the FIPS 180-4 / NIST example vectors.
#include "alea/exec/hash.hpp"

#include "test_util.hpp"

#include <gtest/gtest.h>

using namespace alea::runner;

TEST(Sha256, NistVectors) {
  EXPECT_EQ(sha256Hex(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  EXPECT_EQ(sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  EXPECT_EQ(sha256Hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  EXPECT_EQ(sha256Hex(std::string(1000000, 'a')),
            "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, FileDigestEqualsDataDigest) {
  test::TempDir dir;
  std::string content(200000, '\0');
  for (std::size_t i = 0; i < content.size(); ++i)
    content[i] = static_cast<char>(i * 7);
  auto path = dir.write("f", content);
  auto digest = sha256File(path);
  ASSERT_TRUE(digest.has_value());
  EXPECT_EQ(*digest, sha256Hex(content));
  EXPECT_FALSE(sha256File(dir.file("missing")).has_value());
}
