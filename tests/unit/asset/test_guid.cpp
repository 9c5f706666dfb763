// SPDX-License-Identifier: Apache-2.0
// GUID rules and deriveGuid vectors: ENGINE-SPEC §1.5.
#include <catch2/catch.hpp>

#include "rig2d/asset/guid.h"

using namespace rig2d;

TEST_CASE("guid: isGuid is case-insensitive, untrimmed, nibble-agnostic", "[asset]") {
  CHECK(is_guid("3ab58b97-ab98-26c0-162f-c87db96331fe"));
  CHECK(is_guid("AAAAAAAA-0000-4000-8000-000000000001"));
  CHECK_FALSE(is_guid(" aaaaaaaa-0000-4000-8000-000000000001"));
  CHECK_FALSE(is_guid("aaaaaaaa-0000-4000-8000-00000000000"));
  CHECK_FALSE(is_guid("aaaaaaaa_0000-4000-8000-000000000001"));
  CHECK_FALSE(is_guid("e2e-2d-scene-0000-0000-000000000000"));
  CHECK_FALSE(is_guid("gaaaaaaa-0000-4000-8000-000000000001"));
  CHECK_FALSE(is_guid(""));
}

TEST_CASE("guid: deriveGuid matches the engine's vectors", "[asset]") {
  CHECK(derive_guid("sprite:aaaaaaaa-0000-4000-8000-000000000001") == "3ab58b97-ab98-26c0-162f-c87db96331fe");
  CHECK(derive_guid("sprite:720bff86-1b0e-4293-acfc-a4b7661f835c") == "fc9dd3be-30ee-f801-04ad-db58d0b2a243");
  CHECK(derive_guid("") == "17ed628f-15eb-20d2-97f2-a93d8df05ae8");
  // Non-ASCII text hashes its UTF-16 code units: deterministic and distinct from the ASCII neighbour.
  CHECK(derive_guid("é") == derive_guid("\xc3\xa9"));
  CHECK(derive_guid("é") != derive_guid("e"));
  CHECK(is_guid(derive_guid("\xff\xfe")));
}

TEST_CASE("guid: uuid_v5 follows RFC 4122", "[asset]") {
  // The RFC's DNS namespace example (errata-corrected): uuid5(NAMESPACE_DNS, "www.example.com").
  CHECK(uuid_v5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "www.example.com") == "2ed6657d-e927-568b-95e1-2665a8aea6a2");
  CHECK(uuid_v5("6ba7b810-9dad-11d1-80b4-00c04fd430c8", "python.org") == "886313e1-3b8a-5372-9b90-0c9aee199e5d");
  const std::string id = uuid_v5(kRigIdNamespace, "3ab58b97-ab98-26c0-162f-c87db96331fe");
  CHECK(is_guid(id));
  CHECK(id[14] == '5');
  CHECK(id == uuid_v5(kRigIdNamespace, "3ab58b97-ab98-26c0-162f-c87db96331fe"));
}
