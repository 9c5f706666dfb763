// SPDX-License-Identifier: Apache-2.0
#include <catch2/catch.hpp>

#include <string>

#include "rig2d/core/sha256.h"

using rig2d::Sha256;
using rig2d::sha256_hex;

TEST_CASE("sha256: FIPS 180-4 / NIST test vectors", "[sha256]") {
  CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(sha256_hex(std::string(1000000, 'a')) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("sha256: pieces of any size give the one-shot digest", "[sha256]") {
  std::string message;
  for (int i = 0; i < 300; ++i) message += static_cast<char>((i * 37 + 11) & 0xff);
  // Lengths around the 55/56/64-byte padding boundaries, split at every offset.
  for (const std::size_t length : {0u, 1u, 55u, 56u, 63u, 64u, 65u, 119u, 120u, 128u, 300u}) {
    const std::string part = message.substr(0, length);
    const std::string want = sha256_hex(part);
    for (std::size_t cut = 0; cut <= length; cut += 7) {
      Sha256 hash;
      hash.update(part.substr(0, cut));
      hash.update(part.substr(cut));
      INFO("length " << length << ", cut " << cut);
      CHECK(hash.hex_digest() == want);
    }
  }
}

TEST_CASE("sha256: reset starts a new hash, one changed byte changes the digest", "[sha256]") {
  Sha256 hash;
  hash.update("something else");
  (void)hash.hex_digest();
  hash.reset();
  hash.update("abc");
  CHECK(hash.hex_digest() == sha256_hex("abc"));
  CHECK(sha256_hex("abd") != sha256_hex("abc"));
  CHECK(sha256_hex("abc").size() == 64);
}
