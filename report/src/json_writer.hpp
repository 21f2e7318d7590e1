// TEMPORARY: the old hand-written JSON writer, until json.cpp uses nlohmann-json.
#pragma once
#include <string>
#include <string_view>
namespace alea::report {
class JsonWriter {
public:
  explicit JsonWriter(int indent = 2) : indent_(indent) {}
  JsonWriter &beginObject();
  JsonWriter &endObject();
  // An inlined array stays on one line ("[1, 2]"): for short scalar lists.
  JsonWriter &beginArray(bool inlined = false);
  JsonWriter &endArray();
  JsonWriter &key(std::string_view k); // inside an object, before a value
  JsonWriter &value(std::string_view s);
  JsonWriter &value(const char *s) { return value(std::string_view(s)); }
  JsonWriter &value(const std::string &s) { return value(std::string_view(s)); }
  JsonWriter &value(double d);
  JsonWriter &value(std::size_t n);
  JsonWriter &value(bool b);
  JsonWriter &null();
  const std::string &str() const { return out_; }

  static std::string escape(std::string_view s); // with the quotes
  static std::string number(double d);           // shortest round trip

private:
  void beforeValue();
  void newline();
  std::string out_;
  int indent_;
  // Per open container: true once it has an element.
  std::string stack_; // 'o', 'a' or 'i' (inlined array)
  std::string hasElement_;
  bool afterKey_ = false;
};
} // namespace alea::report
