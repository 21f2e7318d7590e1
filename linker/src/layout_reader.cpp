// Reading a layout out of an ELF file with libelf: the `.note.alea` record and
// the defined functions in address order, plus the layout fingerprint. Notes
// are parsed by hand from the section bytes (4-byte aligned name/desc words, as
// in the gABI) so that a `.note.alea` section that an old toolchain typed
// SHT_PROGBITS is read as well as a proper SHT_NOTE one.
#include "alea/linker/layout.hpp"

#include "alea/contract.hpp"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <map>
#include <memory>
#include <optional>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace alea::linker {

namespace {

// Owns the file descriptor and the Elf handle.
struct ElfFile {
  int fd = -1;
  Elf *elf = nullptr;
  ~ElfFile() {
    if (elf)
      elf_end(elf);
    if (fd >= 0)
      close(fd);
  }
};

std::string fileTypeName(unsigned type) {
  switch (type) {
  case ET_EXEC:
    return "executable";
  case ET_DYN:
    return "shared object";
  case ET_REL:
    return "relocatable";
  case ET_CORE:
    return "core";
  default:
    return "unknown";
  }
}

std::uint32_t readWord(const unsigned char *p, bool bigEndian) {
  if (bigEndian)
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) |
           std::uint32_t(p[3]);
  return (std::uint32_t(p[3]) << 24) | (std::uint32_t(p[2]) << 16) | (std::uint32_t(p[1]) << 8) |
         std::uint32_t(p[0]);
}

std::size_t align4(std::size_t n) { return (n + 3) & ~std::size_t{3}; }

// Appends the descriptors of the notes named "alea" found in `bytes`: type 1
// (compile time) to `out`, type 2 (link records) to `linkOut`. Zero padding
// between notes (section alignment when the linker concatenates input
// sections) is skipped word by word. Returns the offset of a note that runs
// past the end of the section (nullopt when every note fits); the notes before
// it are kept.
std::optional<std::size_t> collectNotes(const unsigned char *bytes, std::size_t size,
                                        bool bigEndian, std::vector<std::string> &out,
                                        std::vector<std::string> &linkOut) {
  std::size_t pos = 0;
  while (pos + 12 <= size) {
    const std::uint32_t nameSize = readWord(bytes + pos, bigEndian);
    const std::uint32_t descSize = readWord(bytes + pos + 4, bigEndian);
    const std::uint32_t type = readWord(bytes + pos + 8, bigEndian);
    if (nameSize == 0 && descSize == 0 && type == 0) {
      pos += 4; // padding
      continue;
    }
    const std::size_t nameAt = pos + 12;
    const std::size_t descAt = nameAt + align4(nameSize);
    const std::size_t end = descAt + align4(descSize);
    if (nameSize > size || descSize > size || end > size)
      return pos; // truncated or not a note: stop rather than read garbage
    std::string_view name(reinterpret_cast<const char *>(bytes + nameAt), nameSize);
    while (!name.empty() && name.back() == '\0')
      name.remove_suffix(1);
    if (name == kNoteOwner && (type == kLayoutNoteType || type == kLinkNoteType)) {
      std::string desc(reinterpret_cast<const char *>(bytes + descAt), descSize);
      while (!desc.empty() && desc.back() == '\0')
        desc.pop_back();
      (type == kLayoutNoteType ? out : linkOut).push_back(std::move(desc));
    }
    pos = end;
  }
  if (pos < size && std::any_of(bytes + pos, bytes + size, [](unsigned char b) { return b; }))
    return pos; // a note header cut short (trailing zero bytes are padding)
  return std::nullopt;
}

// The descriptors that differ from `first`, each once, in order of appearance.
std::vector<std::string> othersThan(const std::string &first,
                                    const std::vector<std::string> &descs) {
  std::vector<std::string> others;
  for (const auto &d : descs)
    if (d != first && std::find(others.begin(), others.end(), d) == others.end())
      others.push_back(d);
  return others;
}

// A file's notes of one kind (`descs`, in file order) as `Record`: how many
// (`count`), the first one's text and what `parse` reads in it (the record's
// `Parsed` part), and the distinct descriptors other than the first (`others`).
template <class Record, class Parsed>
Record firstNote(const std::vector<std::string> &descs,
                 std::optional<Parsed> (*parse)(std::string_view), std::size_t Record::*count,
                 std::vector<std::string> Record::*others) {
  Record record;
  record.*count = descs.size();
  record.present = !descs.empty();
  if (!record.present)
    return record;
  record.text = descs.front();
  if (auto parsed = parse(record.text)) {
    record.valid = true;
    static_cast<Parsed &>(record) = std::move(*parsed);
  }
  record.*others = othersThan(record.text, descs);
  return record;
}

// The canonical seed ("0x" + 16 hex digits) -> value; advances `text`.
bool takeSeed(std::string_view &text, std::uint64_t &seed) {
  if (!parseCanonicalSeed(text.substr(0, kSeedTextSize), seed))
    return false;
  text.remove_prefix(kSeedTextSize);
  return true;
}

// `<tag> seed=<canonical seed> factors=`: true and advances `text` to the
// factor list when `text` starts so.
bool takeNoteHead(std::string_view &text, std::string_view tag, std::uint64_t &seed) {
  if (!text.starts_with(tag))
    return false;
  text.remove_prefix(tag.size());
  if (!text.starts_with(kNoteSeedKey))
    return false;
  text.remove_prefix(kNoteSeedKey.size());
  if (!takeSeed(text, seed) || !text.starts_with(kNoteFactorsKey))
    return false;
  text.remove_prefix(kNoteFactorsKey.size());
  return true;
}

// A comma list without empty items (the whole list may be empty).
bool takeList(std::string_view text, std::vector<std::string> &out) {
  while (!text.empty()) {
    const auto comma = text.find(',');
    const auto item = text.substr(0, comma);
    if (item.empty())
      return false;
    out.emplace_back(item);
    if (comma == std::string_view::npos)
      break;
    text.remove_prefix(comma + 1);
    if (text.empty())
      return false; // trailing comma
  }
  return true;
}

// 64-bit FNV-1a, fed a byte range or a little-endian 64-bit word at a time.
struct Fnv1a64 {
  std::uint64_t value = 0xcbf29ce484222325ULL; // offset basis
  void byte(unsigned char b) {
    value ^= b;
    value *= 0x100000001b3ULL; // FNV-1a 64 prime
  }
  void word(std::uint64_t v) {
    for (int i = 0; i < 8; ++i, v >>= 8)
      byte(static_cast<unsigned char>(v & 0xff));
  }
  void bytes(const unsigned char *p, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i)
      byte(p[i]);
  }
};

// "a FIFO", "a directory"...: the kind of a file that is not a regular one.
std::string fileKind(mode_t mode) {
  if (S_ISFIFO(mode))
    return "a FIFO";
  if (S_ISCHR(mode))
    return "a character device";
  if (S_ISBLK(mode))
    return "a block device";
  if (S_ISDIR(mode))
    return "a directory";
  if (S_ISSOCK(mode))
    return "a socket";
  return "not a regular file";
}

// Preferred alias: a global name over a local one, then the smaller name.
bool preferredOver(const Function &x, const Function &y) {
  if (x.local != y.local)
    return !x.local;
  return x.name < y.name;
}

} // namespace

std::optional<ParsedNote> parseNoteText(std::string_view text) {
  ParsedNote note;
  if (!takeNoteHead(text, kLayoutNoteTag, note.seed))
    return std::nullopt;
  if (text.find_first_of(" \t\n") != std::string_view::npos || !takeList(text, note.factors))
    return std::nullopt;
  return note;
}

std::optional<ParsedLinkNote> parseLinkNoteText(std::string_view text) {
  ParsedLinkNote note;
  if (!takeNoteHead(text, kLinkNoteTag, note.seed))
    return std::nullopt;
  if (text.find_first_of("\t\n") != std::string_view::npos)
    return std::nullopt;
  auto field = [&text]() {
    const auto space = text.find(' ');
    const std::string_view value = text.substr(0, space);
    text.remove_prefix(space == std::string_view::npos ? text.size() : space);
    return value;
  };
  if (!takeList(field(), note.factors))
    return std::nullopt;
  if (text.starts_with(kNoteSkippedKey)) {
    text.remove_prefix(kNoteSkippedKey.size());
    if (!takeList(field(), note.skipped) || note.skipped.empty())
      return std::nullopt;
  }
  if (text.starts_with(kNoteOdrKey)) {
    // odr=<count>[:<name>,<name>...] (alea/linker/odr.hpp, odrRecordField)
    text.remove_prefix(kNoteOdrKey.size());
    std::string_view value = field();
    const auto colon = value.find(':');
    const std::string_view count = value.substr(0, colon);
    std::uint64_t n = 0;
    if (count.empty() || count.size() > 9 || count.find_first_not_of("0123456789") != count.npos ||
        !parseSeed(count, n) || n == 0)
      return std::nullopt;
    note.odrCount = static_cast<std::size_t>(n);
    if (colon != std::string_view::npos &&
        (!takeList(value.substr(colon + 1), note.odrSymbols) || note.odrSymbols.empty() ||
         note.odrSymbols.size() > note.odrCount))
      return std::nullopt;
  }
  if (!text.empty())
    return std::nullopt; // an unknown field, or blanks
  return note;
}

std::optional<std::uint64_t> Layout::seed() const {
  if (record.present && record.valid)
    return record.seed;
  if (link.present && link.valid)
    return link.seed;
  return std::nullopt;
}

std::string hex16(std::uint64_t value) {
  static const char digits[] = "0123456789abcdef";
  std::string s(16, '0');
  for (int i = 15; i >= 0; --i, value >>= 4)
    s[static_cast<std::size_t>(i)] = digits[value & 0xf];
  return s;
}

std::uint64_t fingerprint(const std::vector<Function> &functions) {
  Fnv1a64 h;
  if (functions.empty())
    return h.value;
  const std::uint64_t base = functions.front().address & ~std::uint64_t{0xfff};
  for (const auto &f : functions) {
    h.word(f.address - base);
    h.word(f.size);
  }
  return h.value;
}

std::string basisName(FingerprintBasis basis) {
#define ALEA_BASIS_PHRASE(Enumerator, Name, Phrase) Phrase,
  static constexpr const char *kPhrases[] = {ALEA_FINGERPRINT_BASES(ALEA_BASIS_PHRASE)};
#undef ALEA_BASIS_PHRASE
  return kPhrases[static_cast<std::size_t>(basis)];
}

namespace {

// Whether `size` bytes at `offset` lie within a file of `fileSize` bytes
// (written so that no sum can wrap around).
bool withinFile(std::uint64_t offset, std::uint64_t size, std::uint64_t fileSize) {
  return offset <= fileSize && size <= fileSize - offset;
}

// libelf reads a cut-off file without complaint: a section header table past
// the end of the file reads as no sections at all, a section whose bytes are
// missing as no data. Either would show a damaged alea binary as "not
// randomized", so the tables the reader relies on are checked against the
// file's size first. Returns the problem, or "" when the headers fit.
std::string checkHeaderTables(Elf *elf, const GElf_Ehdr &ehdr, std::uint64_t fileSize) {
  std::size_t shnum = ehdr.e_shnum;
  if (shnum == 0 && ehdr.e_shoff != 0) {
    // Extended numbering: the count is section 0's sh_size, so section 0 must
    // be in the file before libelf can tell the count.
    shnum = 1;
    if (withinFile(ehdr.e_shoff, ehdr.e_shentsize, fileSize))
      elf_getshdrnum(elf, &shnum);
  }
  const auto table = [&](const char *what, std::uint64_t offset, std::uint64_t count,
                         std::uint64_t entrySize) -> std::string {
    if (count == 0 || (entrySize != 0 && count <= fileSize / entrySize &&
                       withinFile(offset, count * entrySize, fileSize)))
      return "";
    if (entrySize == 0)
      return std::string("corrupt ELF: the ") + what + " table has " + std::to_string(count) +
             " entries of 0 bytes";
    return std::string("truncated or corrupt ELF: the ") + what + " table (" +
           std::to_string(count) + " entries of " + std::to_string(entrySize) +
           " bytes at offset " + std::to_string(offset) + ") runs past the end of the file (" +
           std::to_string(fileSize) + " bytes)";
  };
  if (std::string e = table("section header", ehdr.e_shoff, shnum, ehdr.e_shentsize); !e.empty())
    return e;
  return table("program header", ehdr.e_phoff, ehdr.e_phnum, ehdr.e_phentsize);
}

// What openElf checked and the later steps read: the ELF header, the file's
// size and the section name table.
struct ElfHeader {
  GElf_Ehdr ehdr;
  std::uint64_t fileSize = 0;
  std::size_t shstrndx = 0;
};

// Opens `path` into `file` and checks that it is an ELF file whose header
// tables fit in it.
Expected<ElfHeader> openElf(const std::string &path, ElfFile &file) {
  if (elf_version(EV_CURRENT) == EV_NONE)
    return fail("libelf initialization failed");
  // Only a regular file can be an ELF file. A FIFO, a device or a directory
  // is refused by its type before it is opened: opening a FIFO for reading
  // waits for a writer. O_NONBLOCK keeps that true of a file replaced by a
  // FIFO between the stat and the open, which the fstat then refuses.
  struct stat st;
  if (stat(path.c_str(), &st) != 0)
    return fail("cannot open '" + path + "': " + std::strerror(errno));
  const auto notRegular = [&path](mode_t mode) {
    return fail("'" + path + "' is not a regular file (it is " + fileKind(mode) + ")");
  };
  if (!S_ISREG(st.st_mode))
    return notRegular(st.st_mode);
  file.fd = open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (file.fd < 0)
    return fail("cannot open '" + path + "': " + std::strerror(errno));
  if (fstat(file.fd, &st) != 0)
    return fail("cannot stat '" + path + "': " + std::strerror(errno));
  if (!S_ISREG(st.st_mode))
    return notRegular(st.st_mode);
  ElfHeader h;
  h.fileSize = static_cast<std::uint64_t>(st.st_size);
  file.elf = elf_begin(file.fd, ELF_C_READ, nullptr);
  unsigned char magic[SELFMAG] = {};
  if ((!file.elf || elf_kind(file.elf) != ELF_K_ELF) &&
      pread(file.fd, magic, SELFMAG, 0) == SELFMAG && std::memcmp(magic, ELFMAG, SELFMAG) == 0) {
    // The ELF magic, yet libelf does not take the file: it ends inside the
    // ELF header (which libelf reports as "not ELF").
    return fail(path + ": truncated or corrupt ELF: the file (" + std::to_string(h.fileSize) +
                " bytes) has the ELF magic but no readable ELF header");
  }
  if (!file.elf || elf_kind(file.elf) != ELF_K_ELF)
    return fail("'" + path + "' is not an ELF file" +
                (file.elf && elf_kind(file.elf) == ELF_K_AR ? " (it is an archive)" : ""));
  if (!gelf_getehdr(file.elf, &h.ehdr))
    return fail(path + ": truncated or corrupt ELF: " + elf_errmsg(-1));
  if (std::string problem = checkHeaderTables(file.elf, h.ehdr, h.fileSize); !problem.empty())
    return fail(path + ": " + problem);
  if (elf_getshdrstrndx(file.elf, &h.shstrndx) != 0)
    return fail(path + ": truncated or corrupt ELF: " + elf_errmsg(-1));
  return h;
}

// "executable (PIE)" for a position-independent executable: ET_DYN with a
// program interpreter.
std::string fileTypeOf(Elf *elf, const GElf_Ehdr &ehdr) {
  std::string type = fileTypeName(ehdr.e_type);
  if (ehdr.e_type != ET_DYN)
    return type;
  std::size_t phnum = 0;
  if (elf_getphdrnum(elf, &phnum) == 0)
    for (std::size_t i = 0; i < phnum; ++i) {
      GElf_Phdr phdr;
      if (gelf_getphdr(elf, static_cast<int>(i), &phdr) && phdr.p_type == PT_INTERP)
        type = "executable (PIE)";
    }
  return type;
}

struct SectionInfo {
  std::string name;
  bool exec = false;
  std::uint64_t start = 0; // where st_value 0 of the section would be: sh_addr, or 0 in .o
};

// What pass 1 over the section headers finds.
struct SectionScan {
  std::map<std::size_t, SectionInfo> sections;
  std::vector<std::pair<std::uint64_t, Elf_Scn *>> code; // executable sections: (start, section)
  Elf_Scn *symtab = nullptr, *dynsym = nullptr;
  std::vector<std::string> descs, linkDescs; // the descriptors of alea's notes
};

// Pass 1: section names and flags, notes, and where the symbol tables are.
Expected<SectionScan> scanSections(const std::string &path, Elf *elf, const ElfHeader &h) {
  SectionScan s;
  const bool bigEndian = h.ehdr.e_ident[EI_DATA] == ELFDATA2MSB;
  for (Elf_Scn *scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    GElf_Shdr shdr;
    if (!gelf_getshdr(scn, &shdr))
      return fail(path + ": truncated or corrupt ELF: section header " +
                  std::to_string(elf_ndxscn(scn)) + ": " + elf_errmsg(-1));
    const char *name = elf_strptr(elf, h.shstrndx, shdr.sh_name);
    SectionInfo &info = s.sections[elf_ndxscn(scn)];
    info.name = name ? name : "";
    // "section [3] .note.alea", as readelf numbers them.
    const std::string sectionName =
        "section [" + std::to_string(elf_ndxscn(scn)) + "] " + (name ? name : "(no name)");
    if (shdr.sh_type != SHT_NOBITS && !withinFile(shdr.sh_offset, shdr.sh_size, h.fileSize))
      return fail(path + ": truncated or corrupt ELF: " + sectionName + " (" +
                  std::to_string(shdr.sh_size) + " bytes at offset " +
                  std::to_string(shdr.sh_offset) + ") runs past the end of the file (" +
                  std::to_string(h.fileSize) + " bytes)");
    info.exec = (shdr.sh_flags & SHF_EXECINSTR) != 0 && shdr.sh_type != SHT_NOBITS;
    info.start = h.ehdr.e_type == ET_REL ? 0 : shdr.sh_addr;
    if (info.exec && shdr.sh_size > 0)
      s.code.emplace_back(info.start, scn);
    if (shdr.sh_type == SHT_SYMTAB)
      s.symtab = scn;
    else if (shdr.sh_type == SHT_DYNSYM)
      s.dynsym = scn;
    const bool noteLike =
        shdr.sh_type == SHT_NOTE || (info.name == kNoteSection && shdr.sh_type != SHT_NOBITS);
    if (!noteLike)
      continue;
    // elf_rawdata: the bytes as stored; note words are decoded by hand.
    Elf_Data *data = elf_rawdata(scn, nullptr);
    if (!data && shdr.sh_size > 0)
      return fail(path + ": truncated or corrupt ELF: " + sectionName + ": " + elf_errmsg(-1));
    std::optional<std::size_t> bad;
    if (data && data->d_buf)
      bad = collectNotes(static_cast<const unsigned char *>(data->d_buf), data->d_size, bigEndian,
                         s.descs, s.linkDescs);
    // Only alea's own section is held to the 4-byte layout read here: other
    // producers' note sections may be laid out differently (8-byte aligned
    // notes), and are none of alea's business.
    if (bad && info.name == kNoteSection)
      return fail(path + ": corrupt ELF: " + sectionName + ": the note at byte " +
                  std::to_string(*bad) + " runs past the end of the section (" +
                  std::to_string(data->d_size) + " bytes)");
  }
  return s;
}

// The code fingerprint: the executable sections in address order (index
// order in a .o, where every section starts at 0), their place relative to
// the first one's page, their sizes and their bytes.
Status hashCode(const std::string &path, SectionScan &s, Layout &layout) {
  auto &code = s.code;
  std::stable_sort(code.begin(), code.end(),
                   [](const auto &x, const auto &y) { return x.first < y.first; });
  Fnv1a64 h;
  const std::uint64_t base = code.empty() ? 0 : code.front().first & ~std::uint64_t{0xfff};
  for (const auto &[start, scn] : code) {
    Elf_Data *data = elf_rawdata(scn, nullptr);
    if (!data || !data->d_buf)
      return fail(path + ": truncated or corrupt ELF: section [" + std::to_string(elf_ndxscn(scn)) +
                  "]: " + elf_errmsg(-1));
    h.word(start - base);
    h.word(data->d_size);
    h.bytes(static_cast<const unsigned char *>(data->d_buf), data->d_size);
    ++layout.code.sections;
    layout.code.bytes += data->d_size;
  }
  layout.code.fingerprint = h.value;
  return Status::success();
}

// Pass 2: the functions of the static symbol table (or .dynsym if stripped),
// aliases folded, in layout order, with the gap before each.
Status readFunctions(const std::string &path, Elf *elf, const GElf_Ehdr &ehdr, SectionScan &s,
                     Layout &layout) {
  Elf_Scn *symScn = s.symtab ? s.symtab : s.dynsym;
  layout.stripped = !s.symtab;
  layout.fromDynsym = !s.symtab && s.dynsym;
  if (!symScn)
    return Status::success();
  GElf_Shdr shdr;
  gelf_getshdr(symScn, &shdr);
  Elf_Data *data = elf_getdata(symScn, nullptr);
  if (!data && shdr.sh_size > 0)
    return fail(path + ": truncated or corrupt ELF: symbol table section [" +
                std::to_string(elf_ndxscn(symScn)) + "]: " + elf_errmsg(-1));
  const std::size_t count = shdr.sh_entsize ? shdr.sh_size / shdr.sh_entsize : 0;
  // key (section index, address) -> function, folding aliases
  std::map<std::pair<std::size_t, std::uint64_t>, Function> byPlace;
  for (std::size_t i = 0; data && i < count; ++i) {
    GElf_Sym sym;
    if (!gelf_getsym(data, static_cast<int>(i), &sym))
      break;
    const unsigned type = GELF_ST_TYPE(sym.st_info);
    if ((type != STT_FUNC && type != STT_GNU_IFUNC) || sym.st_size == 0 ||
        sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE)
      continue;
    auto sec = s.sections.find(sym.st_shndx);
    if (sec == s.sections.end() || !sec->second.exec)
      continue;
    Function f;
    const char *name = elf_strptr(elf, shdr.sh_link, sym.st_name);
    f.name = name ? name : "";
    f.address = sym.st_value;
    f.size = sym.st_size;
    f.section = sec->second.name;
    f.local = GELF_ST_BIND(sym.st_info) == STB_LOCAL;
    auto [it, inserted] = byPlace.try_emplace({sym.st_shndx, sym.st_value}, f);
    if (!inserted && preferredOver(f, it->second)) {
      f.size = std::max(f.size, it->second.size);
      it->second = f;
    }
  }
  std::vector<std::pair<std::size_t, Function>> placed; // (section index, function)
  placed.reserve(byPlace.size());
  for (auto &[key, f] : byPlace)
    placed.emplace_back(key.first, std::move(f));
  // Executables and shared objects: order by address alone (sections there
  // are laid out by address, not by index).
  if (ehdr.e_type != ET_REL)
    std::stable_sort(placed.begin(), placed.end(), [](const auto &x, const auto &y) {
      return x.second.address < y.second.address;
    });
  // Gaps: from the end of the previous function of the same section (its
  // start for the first one); overlapping symbols give 0.
  std::map<std::size_t, std::uint64_t> sectionEnd;
  layout.functions.reserve(placed.size());
  for (auto &[index, f] : placed) {
    const auto it = sectionEnd.try_emplace(index, s.sections[index].start).first;
    f.gap = f.address > it->second ? f.address - it->second : 0;
    it->second = std::max(it->second, f.address + f.size);
    layout.functions.push_back(std::move(f));
  }
  return Status::success();
}

// .dynsym names only the exported functions: a stripped file's layout is
// its code.
void chooseFingerprint(Layout &layout) {
  if (!layout.stripped && !layout.functions.empty()) {
    layout.basis = FingerprintBasis::Functions;
    layout.fingerprint = fingerprint(layout.functions);
  } else if (layout.code.sections > 0) {
    layout.basis = FingerprintBasis::Code;
    layout.fingerprint = layout.code.fingerprint;
  } else {
    layout.basis = FingerprintBasis::Nothing;
    layout.fingerprint = fingerprint({});
  }
}

} // namespace

Expected<Layout> readLayout(const std::string &path) {
  ElfFile file;
  Expected<ElfHeader> header = openElf(path, file);
  if (!header)
    return fail(header.error());
  Layout layout;
  layout.path = path;
  layout.fileType = fileTypeOf(file.elf, header->ehdr);
  Expected<SectionScan> scan = scanSections(path, file.elf, *header);
  if (!scan)
    return fail(scan.error());
  layout.record =
      firstNote(scan->descs, parseNoteText, &AleaRecord::noteCount, &AleaRecord::disagreeing);
  layout.link =
      firstNote(scan->linkDescs, parseLinkNoteText, &LinkRecord::recordCount, &LinkRecord::others);
  if (Status hashed = hashCode(path, *scan, layout); !hashed)
    return fail(hashed.error());
  if (Status read = readFunctions(path, file.elf, header->ehdr, *scan, layout); !read)
    return fail(read.error());
  chooseFingerprint(layout);
  return layout;
}

} // namespace alea::linker
