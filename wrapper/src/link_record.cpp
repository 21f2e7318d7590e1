// The link record object (link_record.hpp), written byte by byte after the ELF
// gABI ("ELF Header", "Sections", "Note Section") for either class and byte
// order, and the sniffing of link inputs that tells the wrapper which target
// the object must match, whether the link runs LTO, and whether GNU ld would
// make the stack executable (.note.GNU-stack).
//
// Layout of the object (offsets aligned as each part needs):
//   ELF header | .note.alea | [.note.gnu.property] | .shstrtab | section headers
// Sections: 0 null, .note.alea, [.note.gnu.property], .note.GNU-stack (empty),
// .shstrtab. No symbols, no relocations: the linker only concatenates the notes.
#include "alea/wrapper/link_record.hpp"

#include "alea/lists.hpp"

#include <cstdint>

namespace alea::wrapper {
namespace {

// ELF constants (elf.h is not needed for a dozen numbers; names as in the gABI).
constexpr std::uint8_t ELFCLASS32 = 1, ELFCLASS64 = 2;
constexpr std::uint8_t ELFDATA2LSB = 1, ELFDATA2MSB = 2;
constexpr std::uint16_t ET_REL = 1, ET_EXEC = 2, ET_DYN = 3;
constexpr std::uint16_t EM_386 = 3, EM_X86_64 = 62, EM_AARCH64 = 183;
constexpr std::uint32_t SHT_PROGBITS = 1, SHT_STRTAB = 3, SHT_NOTE = 7;
constexpr std::uint64_t SHF_ALLOC = 2, SHF_EXECINSTR = 4;
constexpr std::uint32_t NT_GNU_PROPERTY_TYPE_0 = 5;
// AND-features: a bit survives in the output only if every input sets it.
constexpr std::uint32_t GNU_PROPERTY_X86_FEATURE_1_AND = 0xc0000002;
constexpr std::uint32_t X86_FEATURES = 0x1 | 0x2; // IBT, SHSTK
constexpr std::uint32_t GNU_PROPERTY_AARCH64_FEATURE_1_AND = 0xc0000000;
constexpr std::uint32_t AARCH64_FEATURES = 0x1 | 0x2 | 0x4; // BTI, PAC, GCS

std::uint64_t readUnsigned(std::string_view b, std::size_t at, std::size_t n, bool big) {
  std::uint64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t byte = static_cast<unsigned char>(b[at + i]);
    v |= big ? byte << (8 * (n - 1 - i)) : byte << (8 * i);
  }
  return v;
}

// Appends integers in the target's byte order.
class Writer {
public:
  explicit Writer(bool bigEndian) : big_(bigEndian) {}
  void u8(std::uint8_t v) { out_.push_back(static_cast<char>(v)); }
  void u16(std::uint16_t v) { put(v, 2); }
  void u32(std::uint32_t v) { put(v, 4); }
  void u64(std::uint64_t v) { put(v, 8); }
  void word(std::uint64_t v, bool is64) { put(v, is64 ? 8 : 4); } // Elf32/64_Addr, _Off...
  void bytes(std::string_view s) { out_.append(s); }
  void align(std::size_t a) {
    while (out_.size() % a)
      out_.push_back('\0');
  }
  std::size_t size() const { return out_.size(); }
  std::string take() { return std::move(out_); }

private:
  void put(std::uint64_t v, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
      out_.push_back(static_cast<char>(big_ ? v >> (8 * (n - 1 - i)) : v >> (8 * i)));
  }
  bool big_;
  std::string out_;
};

// One note record (gABI: namesz, descsz, type, name and desc padded to 4).
void note(Writer &w, std::string_view name, std::uint32_t type, std::string_view desc,
          std::size_t descSize) {
  w.u32(static_cast<std::uint32_t>(name.size() + 1));
  w.u32(static_cast<std::uint32_t>(descSize));
  w.u32(type);
  w.bytes(name);
  w.u8(0);
  w.align(4);
  w.bytes(desc);
  for (std::size_t i = desc.size(); i < descSize; ++i)
    w.u8(0);
  w.align(4);
}

struct Section {
  std::uint32_t name = 0; // offset in .shstrtab
  std::uint32_t type = 0;
  std::uint64_t flags = 0;
  std::uint64_t offset = 0, size = 0, align = 1;
};

} // namespace

InputKind inspectInput(std::string_view b, ElfTarget *target) {
  if (b.substr(0, 8) == "!<arch>\n")
    return InputKind::Archive;
  if (b.substr(0, 8) == "!<thin>\n")
    return InputKind::ThinArchive;
  if (b.substr(0, 4) == std::string_view("BC\xc0\xde", 4) ||
      b.substr(0, 4) == std::string_view("\xde\xc0\x17\x0b", 4))
    return InputKind::Bitcode;
  if (b.size() < 52 || b.substr(0, 4) != "\x7f"
                                         "ELF")
    return InputKind::Other;
  const auto cls = static_cast<std::uint8_t>(b[4]), data = static_cast<std::uint8_t>(b[5]);
  if ((cls != ELFCLASS32 && cls != ELFCLASS64) || (data != ELFDATA2LSB && data != ELFDATA2MSB) ||
      (cls == ELFCLASS64 && b.size() < 64))
    return InputKind::Other;
  const bool big = data == ELFDATA2MSB;
  const auto type = static_cast<std::uint16_t>(readUnsigned(b, 16, 2, big));
  if (target) {
    target->elfClass = cls;
    target->data = data;
    target->osabi = static_cast<std::uint8_t>(b[7]);
    target->machine = static_cast<std::uint16_t>(readUnsigned(b, 18, 2, big));
    // e_flags follows e_entry, e_phoff, e_shoff (3 words of the class's size).
    target->flags =
        static_cast<std::uint32_t>(readUnsigned(b, cls == ELFCLASS64 ? 48 : 36, 4, big));
  }
  if (type == ET_REL)
    return InputKind::ElfRelocatable;
  if (type == ET_DYN)
    return InputKind::ElfShared;
  (void)ET_EXEC;
  return InputKind::ElfOther;
}

namespace {

// A decimal field of an ar header (digits, then blanks), or nothing.
std::optional<std::uint64_t> decimal(std::string_view field) {
  std::uint64_t v = 0;
  bool any = false;
  for (char ch : field) {
    if (ch == ' ')
      break;
    if (ch < '0' || ch > '9' || v > (std::uint64_t{1} << 50))
      return std::nullopt;
    v = v * 10 + static_cast<unsigned>(ch - '0');
    any = true;
  }
  return any ? std::optional<std::uint64_t>(v) : std::nullopt;
}

// Walks the members of a (non-thin) ar archive, reading at most `maxHeaders`
// headers: calls visit(offset of the member's data) for each real member (the
// symbol and name tables "/", "//", "/SYM64/", "__.SYMDEF*" are skipped, and a
// BSD long name "#1/<n>" is stepped over) until visit returns false. Returns
// false if a header is malformed, true at the archive's end or when stopped.
bool walkArchive(const ByteReader &readAt, std::uint64_t maxHeaders,
                 const std::function<bool(std::uint64_t)> &visit) {
  std::uint64_t pos = 8; // after "!<arch>\n"
  for (std::uint64_t k = 0; k < maxHeaders; ++k) {
    const std::optional<std::string> header = readAt(pos, 60);
    if (!header || header->empty())
      return true; // the end
    if (header->size() < 60 || (*header)[58] != '`' || (*header)[59] != '\n')
      return false;
    const std::string_view h = *header;
    const auto size = decimal(h.substr(48, 10));
    if (!size)
      return false;
    const std::string_view name = h.substr(0, 16);
    const bool table = name.substr(0, 2) == "/ " || name.substr(0, 3) == "// " ||
                       name.substr(0, 8) == "/SYM64/ " || name.substr(0, 9) == "__.SYMDEF";
    if (!table) {
      std::uint64_t data = pos + 60;
      if (name.substr(0, 3) == "#1/") { // BSD: the name precedes the data
        const auto nameLength = decimal(name.substr(3));
        if (!nameLength)
          return false;
        data += *nameLength;
      }
      if (!visit(data))
        return true;
    }
    pos += 60 + *size + (*size & 1); // members are 2-byte aligned
  }
  return true;
}

} // namespace

std::optional<std::uint64_t> firstArchiveMember(const ByteReader &readAt, int maxMembers) {
  std::optional<std::uint64_t> first;
  walkArchive(readAt, static_cast<std::uint64_t>(maxMembers), [&](std::uint64_t data) {
    first = data;
    return false;
  });
  return first;
}

bool forEachArchiveMember(const ByteReader &readAt,
                          const std::function<bool(std::uint64_t)> &visit) {
  return walkArchive(readAt, UINT64_MAX, visit);
}

std::optional<std::vector<std::string>> thinArchiveMembers(const ByteReader &readAt,
                                                           std::size_t maxMembers) {
  // GNU thin archive (binutils ar T, llvm-ar T; meson's static libraries):
  // "!<thin>\n", then 60-byte headers. Only the symbol table ("/",
  // "/SYM64/") and the long-name table ("//") have data after their header;
  // a member's header has its size but no data. Names are "name/" or "/<offset
  // into the long-name table>", whose entries end in "/\n".
  std::vector<std::string> members;
  std::string longNames;
  std::uint64_t pos = 8;
  while (true) {
    const std::optional<std::string> header = readAt(pos, 60);
    if (!header || header->empty())
      return members;
    if (header->size() < 60 || (*header)[58] != '`' || (*header)[59] != '\n')
      return std::nullopt;
    const std::string_view h = *header;
    const std::optional<std::uint64_t> sizeField = decimal(h.substr(48, 10));
    if (!sizeField)
      return std::nullopt;
    const std::uint64_t size = *sizeField;
    const std::string_view name = h.substr(0, 16);
    if (name.substr(0, 2) == "/ " || name.substr(0, 8) == "/SYM64/ ") {
      pos += 60 + size + (size & 1);
      continue;
    }
    if (name.substr(0, 3) == "// ") {
      if (size > (64u << 20))
        return std::nullopt;
      const auto table = readAt(pos + 60, static_cast<std::size_t>(size));
      if (!table || table->size() != size)
        return std::nullopt;
      longNames = *table;
      pos += 60 + size + (size & 1);
      continue;
    }
    if (members.size() >= maxMembers)
      return std::nullopt;
    std::string member;
    if (name[0] == '/') {
      const std::optional<std::uint64_t> offset = decimal(name.substr(1));
      if (!offset || *offset >= longNames.size())
        return std::nullopt;
      const auto end = longNames.find("/\n", *offset);
      if (end == std::string::npos)
        return std::nullopt;
      member = longNames.substr(*offset, end - *offset);
    } else {
      const auto slash = name.find('/');
      if (slash == std::string_view::npos || slash == 0)
        return std::nullopt;
      member = name.substr(0, slash);
    }
    members.push_back(std::move(member));
    pos += 60; // the member's data lives in its own file
  }
}

StackNote stackNoteOf(const ByteReader &readAt) {
  const std::optional<std::string> head = readAt(0, 64);
  if (!head || inspectInput(*head) != InputKind::ElfRelocatable)
    return StackNote::Unknown;
  const std::string_view h = *head;
  const bool is64 = static_cast<std::uint8_t>(h[4]) == ELFCLASS64;
  const bool big = static_cast<std::uint8_t>(h[5]) == ELFDATA2MSB;
  // Elf32/64_Ehdr: e_shoff, e_shentsize, e_shnum, e_shstrndx.
  const std::uint64_t shoff = readUnsigned(h, is64 ? 40 : 32, is64 ? 8 : 4, big);
  const std::uint64_t entsize = readUnsigned(h, is64 ? 58 : 46, 2, big);
  std::uint64_t count = readUnsigned(h, is64 ? 60 : 48, 2, big);
  std::uint64_t strndx = readUnsigned(h, is64 ? 62 : 50, 2, big);
  // Elf32/64_Shdr fields: name, type, flags, offset, size, link.
  const std::size_t flagsAt = 8, offsetAt = is64 ? 24 : 16, sizeAt = is64 ? 32 : 20;
  const std::size_t linkAt = is64 ? 40 : 24, word = is64 ? 8 : 4;
  if (shoff == 0 || entsize < (is64 ? 64u : 40u))
    return StackNote::Unknown;
  if (count == 0 || strndx == 0xffff) { // SHN_XINDEX: the real values live in section 0
    const std::optional<std::string> zero = readAt(shoff, entsize);
    if (!zero || zero->size() < entsize)
      return StackNote::Unknown;
    if (count == 0)
      count = readUnsigned(*zero, sizeAt, word, big);
    if (strndx == 0xffff)
      strndx = readUnsigned(*zero, linkAt, 4, big);
  }
  // (A bound on what one object may make us read: 256 MiB of headers, as of names.)
  if (count > (256u << 20) / entsize || strndx >= count)
    return StackNote::Unknown;
  const std::optional<std::string> table = readAt(shoff, count * entsize);
  if (!table || table->size() < count * entsize)
    return StackNote::Unknown;
  auto field = [&](std::uint64_t index, std::size_t at, std::size_t n) {
    return readUnsigned(*table, index * entsize + at, n, big);
  };
  const std::uint64_t namesSize = field(strndx, sizeAt, word);
  if (namesSize > (256u << 20))
    return StackNote::Unknown;
  const std::optional<std::string> names = readAt(field(strndx, offsetAt, word), namesSize);
  if (!names || names->size() < namesSize)
    return StackNote::Unknown;
  constexpr std::string_view kStackNote{".note.GNU-stack\0", 16};
  for (std::uint64_t i = 1; i < count; ++i) {
    const std::uint64_t name = field(i, 0, 4);
    if (name < names->size() && std::string_view(*names).substr(name, 16) == kStackNote)
      return field(i, flagsAt, word) & SHF_EXECINSTR ? StackNote::Executable : StackNote::Present;
  }
  return StackNote::Missing;
}

std::string linkNoteText(std::uint64_t seed, const std::vector<std::string> &factors,
                         const std::vector<std::string> &skipped) {
  auto list = [](const std::vector<std::string> &items) { return joinWith(items, ","); };
  std::string text = noteDescriptor(kLinkNoteTag, seed, list(factors));
  if (!skipped.empty())
    text += std::string(kNoteSkippedKey) + list(skipped);
  return text;
}

std::string writeLinkRecordObject(const ElfTarget &target, std::string_view descriptor) {
  const bool is64 = target.elfClass == ELFCLASS64;
  const bool big = target.data == ELFDATA2MSB;
  const std::size_t ehdrSize = is64 ? 64 : 52, shdrSize = is64 ? 64 : 40;
  const std::size_t wordAlign = is64 ? 8 : 4;

  // Section contents first (the header needs the section-table offset).
  Writer body(big);
  body.bytes(std::string(ehdrSize, '\0')); // placeholder, rewritten below
  std::vector<Section> sections(1);        // [0] SHN_UNDEF
  std::string names(1, '\0');
  auto addName = [&names](std::string_view n) {
    const auto at = static_cast<std::uint32_t>(names.size());
    names.append(n);
    names.push_back('\0');
    return at;
  };

  // .note.alea: the record; descsz counts the terminating NUL, as the plugin does.
  body.align(4);
  Section alea;
  alea.name = addName(kNoteSection);
  alea.type = SHT_NOTE;
  alea.flags = SHF_ALLOC;
  alea.offset = body.size();
  alea.align = 4;
  note(body, kNoteOwner, kLinkNoteType, descriptor, descriptor.size() + 1);
  alea.size = body.size() - alea.offset;
  sections.push_back(alea);

  // .note.gnu.property: one AND-feature property with every bit set.
  std::uint32_t propertyType = 0, propertyBits = 0;
  if (target.machine == EM_386 || target.machine == EM_X86_64) {
    propertyType = GNU_PROPERTY_X86_FEATURE_1_AND;
    propertyBits = X86_FEATURES;
  } else if (target.machine == EM_AARCH64) {
    propertyType = GNU_PROPERTY_AARCH64_FEATURE_1_AND;
    propertyBits = AARCH64_FEATURES;
  }
  if (propertyType) {
    body.align(wordAlign);
    Section property;
    property.name = addName(".note.gnu.property");
    property.type = SHT_NOTE;
    property.flags = SHF_ALLOC;
    property.offset = body.size();
    property.align = wordAlign;
    // pr_type, pr_datasz, pr_data, padded to the word size (gABI/x86-64 psABI).
    Writer desc(big);
    desc.u32(propertyType);
    desc.u32(4);
    desc.u32(propertyBits);
    desc.align(wordAlign);
    const std::string d = desc.take();
    note(body, "GNU", NT_GNU_PROPERTY_TYPE_0, d, d.size());
    property.size = body.size() - property.offset;
    sections.push_back(property);
  }

  // .note.GNU-stack: present and not SHF_EXECINSTR = "no executable stack".
  Section stack;
  stack.name = addName(".note.GNU-stack");
  stack.type = SHT_PROGBITS;
  stack.offset = body.size();
  sections.push_back(stack);

  Section shstrtab;
  shstrtab.name = addName(".shstrtab");
  shstrtab.type = SHT_STRTAB;
  shstrtab.offset = body.size();
  shstrtab.size = names.size();
  sections.push_back(shstrtab);
  body.bytes(names);

  body.align(wordAlign);
  const std::uint64_t shoff = body.size();
  for (const Section &s : sections) {
    body.u32(s.name);
    body.u32(s.type);
    body.word(s.flags, is64);
    body.word(0, is64); // sh_addr
    body.word(s.offset, is64);
    body.word(s.size, is64);
    body.u32(0); // sh_link
    body.u32(0); // sh_info
    body.word(s.type ? s.align : 0, is64);
    body.word(0, is64); // sh_entsize
  }
  std::string object = body.take();

  Writer h(big);
  h.bytes("\x7f"
          "ELF");
  h.u8(target.elfClass);
  h.u8(target.data);
  h.u8(1); // EV_CURRENT
  h.u8(target.osabi);
  h.bytes(std::string(8, '\0')); // EI_ABIVERSION, padding
  h.u16(ET_REL);
  h.u16(target.machine);
  h.u32(1);            // e_version
  h.word(0, is64);     // e_entry
  h.word(0, is64);     // e_phoff
  h.word(shoff, is64); // e_shoff
  h.u32(target.flags);
  h.u16(static_cast<std::uint16_t>(ehdrSize));
  h.u16(0); // e_phentsize
  h.u16(0); // e_phnum
  h.u16(static_cast<std::uint16_t>(shdrSize));
  h.u16(static_cast<std::uint16_t>(sections.size()));
  h.u16(static_cast<std::uint16_t>(sections.size() - 1)); // .shstrtab is last
  const std::string header = h.take();
  object.replace(0, header.size(), header);
  return object;
}

} // namespace alea::wrapper
