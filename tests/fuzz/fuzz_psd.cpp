// SPDX-License-Identifier: Apache-2.0
// The PSD/PSB reader: any bytes give a document or a psd.* / memory.budget error, never a crash; a
// document that reads makes parts inside its canvas and an atlas without overlaps.
#include <cstdint>
#include <string_view>

#include "layered_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  rig2d::DocumentReadOptions options;
  options.max_bytes = 64u << 20;  // what a fuzzer may spend; over it is memory.budget
  options.composite = size % 2 == 0;
  const auto doc = rig2d::read_psd(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.psd", options);
  rig2d::fuzz::check_document(doc, "psd.");
  return 0;
}
