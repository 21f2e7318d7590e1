// An enum's names (the words options, files, reports and logs write its values
// with) from the one list that declares its enumerators: LLVM's .def X-macro,
// kept in the enum's own header. The header that declares the enum writes
//
//   #define ALEA_DECISIONS(X) X(Faster, "faster") X(NoChange, "no change")
//   enum class Decision { ALEA_DECISIONS(ALEA_ENUMERATOR) };
//   ALEA_ENUM_NAMES(Decision, ALEA_DECISIONS);
//
// (in the header, the list has one row a line, each line but the last ending
// in a backslash, and a row's comment is a /* */ one: a // comment would
// swallow the next row). Then alea::enumName(Decision::NoChange) is "no
// change" and alea::parseEnum<Decision>("no change") is Decision::NoChange.
// An enumerator cannot be added without its name (what a switch under
// -Wswitch guaranteed before), and name and parse read one table. A row may
// carry more columns (X(Enumerator, name, phrase)): they are the expanding
// file's, which reads them with its own macro.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>

// The enumerator of a row, and its name.
#define ALEA_ENUMERATOR(Enumerator, Name, ...) Enumerator,
#define ALEA_ENUMERATOR_NAME(Enumerator, Name, ...) Name,

// The names of `Enum`, whose enumerators `List` declares, for alea::enumName
// and alea::parseEnum (found by argument-dependent lookup: write it in the
// enum's namespace, or as a friend in its class). A declaration: end it with ';'.
#define ALEA_ENUM_NAMES(Enum, List)                                                                \
  constexpr auto enumNames(Enum) {                                                                 \
    return std::to_array<const char *>({List(ALEA_ENUMERATOR_NAME)});                              \
  }                                                                                                \
  static_assert(true)

namespace alea {

// Every name of E, in the order of its enumerators (0, 1, ...).
template <typename E> inline constexpr auto kEnumNames = enumNames(E{});

template <typename E> constexpr const char *enumName(E value) {
  const auto i = static_cast<std::size_t>(value);
  return i < kEnumNames<E>.size() ? kEnumNames<E>[i] : "?";
}

// The enumerator named `name` exactly; nullopt for any other word.
template <typename E> constexpr std::optional<E> parseEnum(std::string_view name) {
  for (std::size_t i = 0; i < kEnumNames<E>.size(); ++i)
    if (name == kEnumNames<E>[i])
      return static_cast<E>(i);
  return std::nullopt;
}

} // namespace alea
