// Portable seeded randomness shared by every component of alea (header only, so
// the LLVM plugin can use it without linking anything of ours).
//
// DESIGN.md: campaign seed -> build seed = mix(campaign seed, system, build index)
// -> factor seed = mix(build seed, factor). The generators here give the same
// stream on every platform and standard library (std::shuffle and
// std::uniform_int_distribution do not), so a recorded seed reproduces a layout,
// an interleaving or a bootstrap anywhere.
#pragma once

// The seed's spelling (parseSeed, formatSeed) is in the contract; included so
// that code drawing from a seed it also parses needs one include.
#include "alea/contract.hpp"

#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

namespace alea {

// SplitMix64 finalizer (Steele, Lea & Flood 2014): a bijective 64-bit mixer.
constexpr std::uint64_t splitmix64Mix(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// 64-bit FNV-1a of a string: stable names -> numbers for salting streams.
constexpr std::uint64_t hashName(std::string_view s) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (char c : s) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

// Derives a child seed: mix(parent, salt). Used for build seeds and factor seeds.
constexpr std::uint64_t mixSeed(std::uint64_t parent, std::uint64_t salt) {
  return splitmix64Mix(parent + 0x9e3779b97f4a7c15ULL * (salt + 1));
}
constexpr std::uint64_t mixSeed(std::uint64_t parent, std::string_view salt) {
  return mixSeed(parent, hashName(salt));
}

// xoshiro256** 1.0 (Blackman & Vigna 2018), seeded through SplitMix64 as its
// authors recommend. Satisfies UniformRandomBitGenerator.
class Rng {
public:
  using result_type = std::uint64_t;
  explicit constexpr Rng(std::uint64_t seed = 0) { seedState(seed, s_); }
  static constexpr result_type min() { return 0; }
  static constexpr result_type max() { return ~result_type{0}; }

  constexpr result_type operator()() { return step(s_); }

  // The generator on a bare state, for code that keeps its states as words
  // (the bootstrap, one state per SIMD lane): Rng(seed)'s state, and one step
  // (the output, and `s` advanced).
  static constexpr void seedState(std::uint64_t seed, std::uint64_t (&s)[4]) {
    std::uint64_t x = seed;
    for (auto &word : s) {
      x += 0x9e3779b97f4a7c15ULL;
      word = splitmix64Mix(x);
    }
  }
  static constexpr std::uint64_t step(std::uint64_t (&s)[4]) {
    const std::uint64_t result = rotl(s[1] * 5, 7) * 9;
    const std::uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
  }

  // Uniform integer in [0, bound), bound > 0: Lemire's multiply-shift with
  // rejection (unbiased, portable).
  constexpr std::uint64_t below(std::uint64_t bound) {
    std::uint64_t x = (*this)();
    __uint128_t m = static_cast<__uint128_t>(x) * bound;
    std::uint64_t low = static_cast<std::uint64_t>(m);
    if (low < bound) {
      const std::uint64_t threshold = (0 - bound) % bound;
      while (low < threshold) {
        x = (*this)();
        m = static_cast<__uint128_t>(x) * bound;
        low = static_cast<std::uint64_t>(m);
      }
    }
    return static_cast<std::uint64_t>(m >> 64);
  }

  // Uniform integer in [lo, hi] (inclusive).
  constexpr std::uint64_t between(std::uint64_t lo, std::uint64_t hi) {
    return lo + below(hi - lo + 1);
  }

  // Uniform double in [0, 1) with 53 random bits.
  constexpr double uniform() { return static_cast<double>((*this)() >> 11) * 0x1.0p-53; }

private:
  static constexpr std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  std::uint64_t s_[4]{};
};

// Fisher-Yates shuffle (Durstenfeld) driven by Rng: same permutation everywhere.
template <typename RandomIt> constexpr void shuffle(RandomIt first, RandomIt last, Rng &rng) {
  const auto n = static_cast<std::uint64_t>(last - first);
  for (std::uint64_t i = n; i > 1; --i) {
    const std::uint64_t j = rng.below(i);
    using std::swap;
    swap(first[i - 1], first[j]);
  }
}

} // namespace alea
