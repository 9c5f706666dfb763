// SPDX-License-Identifier: Apache-2.0
// Builds the precompiled catch.hpp that every test executable reuses (tests/CMakeLists.txt).
