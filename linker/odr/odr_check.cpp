// The link-time ODR check (alea/linker/odr.hpp) over libelf: load the link's
// ELF objects and archive members, decide which members the link extracts,
// collect the weak and COMDAT definitions of each name, and compare the
// definitions of every name defined more than once by a canonical form of
// their contents. The canonical form is what a linker would see as "the same
// definition": bytes with relocated fields masked, and relocations whose
// targets are named by what they are (a global by name, anything local by its
// contents), never by an object's own numbering or alea's random local names.
#include "alea/linker/odr.hpp"

#include <llvm/Demangle/Demangle.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <deque>
#include <fcntl.h>
#include <gelf.h>
#include <iterator>
#include <libelf.h>
#include <map>
#include <memory>
#include <set>
#include <span>
#include <stdexcept>
#include <unistd.h>
#include <unordered_map>
#include <unordered_set>

namespace alea::linker {
namespace {

std::span<const std::int64_t> addendBiases(std::uint16_t machine, std::uint32_t type, bool code);

// A malformed input: the check stops and the link goes on without it.
struct BadInput : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Symbol {
  std::string_view name;
  unsigned char bind = 0, type = 0;
  std::size_t section = 0; // resolved section index (SHN_XINDEX followed)
  std::uint16_t rawShndx = 0;
  GElf_Addr value = 0;
  GElf_Xword size = 0;
  bool defined() const { return rawShndx != SHN_UNDEF && rawShndx != SHN_COMMON; }
  bool inSection() const {
    return rawShndx != SHN_UNDEF && rawShndx != SHN_ABS && rawShndx != SHN_COMMON &&
           (rawShndx < SHN_LORESERVE || rawShndx == SHN_XINDEX);
  }
};

struct Reloc {
  GElf_Addr offset = 0;
  std::uint32_t type = 0, symbol = 0;
  GElf_Sxword addend = 0;
};

struct Section {
  GElf_Shdr header{};
  Elf_Scn *scn = nullptr;
  std::size_t relocations = 0; // index of the SHT_RELA section applying to it (0: none)
  bool rel = false;            // relocated by an SHT_REL section (implicit addends)
  bool comdat = false;         // member of a GRP_COMDAT group
};

// One ELF relocatable object (a file or an archive member), read lazily:
// headers and symbols at load, section bytes and relocations when compared.
class Object {
public:
  Object(std::string name, Elf *elf, bool member)
      : name_(std::move(name)), elf_(elf), member_(member) {}
  ~Object() { elf_end(elf_); }
  Object(const Object &) = delete;
  Object &operator=(const Object &) = delete;

  const std::string &name() const { return name_; }
  bool member() const { return member_; }
  std::uint16_t machine() const { return machine_; }
  const std::vector<Symbol> &symbols() const { return symbols_; }
  const Section &section(std::size_t i) const {
    if (i >= sections_.size())
      throw BadInput(name_ + ": section index " + std::to_string(i) + " out of range");
    return sections_[i];
  }

  void load() {
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf_, &eh))
      throw BadInput(name_ + ": " + elf_errmsg(-1));
    machine_ = eh.e_machine;
    std::size_t count = 0, names = 0;
    if (elf_getshdrnum(elf_, &count) != 0 || elf_getshdrstrndx(elf_, &names) != 0)
      throw BadInput(name_ + ": " + elf_errmsg(-1));
    // libelf reads a cut-off file without complaint (a section table past
    // its end reads as no sections): check the tables against its size.
    std::size_t fileSize = 0;
    elf_rawfile(elf_, &fileSize);
    auto fits = [fileSize](std::uint64_t offset, std::uint64_t size) {
      return offset <= fileSize && size <= fileSize - offset;
    };
    if (eh.e_shoff == 0 || eh.e_shentsize == 0 || count > fileSize / eh.e_shentsize ||
        !fits(eh.e_shoff, count * eh.e_shentsize))
      throw BadInput(name_ + ": truncated or corrupt ELF (section header table)");
    sections_.resize(count);
    std::size_t symtab = 0, shndxTable = 0;
    for (std::size_t i = 1; i < count; ++i) {
      Section &s = sections_[i];
      s.scn = elf_getscn(elf_, i);
      if (!s.scn || !gelf_getshdr(s.scn, &s.header))
        throw BadInput(name_ + ": " + elf_errmsg(-1));
      if (s.header.sh_type != SHT_NOBITS && !fits(s.header.sh_offset, s.header.sh_size))
        throw BadInput(name_ + ": truncated or corrupt ELF (section " + std::to_string(i) +
                       " runs past the end of the file)");
      if (s.header.sh_type == SHT_SYMTAB)
        symtab = i;
      else if (s.header.sh_type == SHT_SYMTAB_SHNDX)
        shndxTable = i;
    }
    for (std::size_t i = 1; i < count; ++i) {
      const GElf_Shdr &h = sections_[i].header;
      if ((h.sh_type == SHT_RELA || h.sh_type == SHT_REL) && h.sh_info > 0 && h.sh_info < count) {
        sections_[h.sh_info].relocations = i;
        sections_[h.sh_info].rel = h.sh_type == SHT_REL;
      } else if (h.sh_type == SHT_GROUP) {
        const std::string_view words = bytes(i);
        if (words.size() < 4)
          continue;
        auto word = [&](std::size_t k) {
          std::uint32_t w;
          std::memcpy(&w, words.data() + 4 * k, 4); // raw data: the file's byte order
          return eh.e_ident[EI_DATA] == ELFDATA2MSB ? __builtin_bswap32(w) : w;
        };
        if (!(word(0) & GRP_COMDAT))
          continue;
        for (std::size_t k = 1; k < words.size() / 4; ++k)
          if (word(k) < count)
            sections_[word(k)].comdat = true;
      }
    }
    if (symtab)
      loadSymbols(symtab, shndxTable);
  }

  // The raw bytes of section i (empty for SHT_NOBITS).
  std::string_view bytes(std::size_t i) const {
    const Section &s = section(i);
    if (s.header.sh_type == SHT_NOBITS || s.header.sh_size == 0)
      return {};
    Elf_Data *d = elf_rawdata(s.scn, nullptr);
    if (!d || !d->d_buf || d->d_size < s.header.sh_size)
      throw BadInput(name_ + ": section " + std::to_string(i) + " cannot be read");
    return {static_cast<const char *>(d->d_buf), static_cast<std::size_t>(s.header.sh_size)};
  }

  // The relocations applying to section i, sorted by offset.
  const std::vector<Reloc> &relocations(std::size_t i) {
    auto [it, fresh] = relocs_.try_emplace(i);
    if (!fresh)
      return it->second;
    const Section &target = section(i);
    if (!target.relocations)
      return it->second;
    const Section &rs = section(target.relocations);
    Elf_Data *d = elf_getdata(rs.scn, nullptr);
    if (!d)
      throw BadInput(name_ + ": relocations cannot be read");
    const std::size_t n = rs.header.sh_entsize ? rs.header.sh_size / rs.header.sh_entsize : 0;
    for (std::size_t k = 0; k < n; ++k) {
      Reloc r;
      if (rs.header.sh_type == SHT_RELA) {
        GElf_Rela e;
        if (!gelf_getrela(d, static_cast<int>(k), &e))
          throw BadInput(name_ + ": " + elf_errmsg(-1));
        r = {e.r_offset, static_cast<std::uint32_t>(GELF_R_TYPE(e.r_info)),
             static_cast<std::uint32_t>(GELF_R_SYM(e.r_info)), e.r_addend};
      } else {
        GElf_Rel e;
        if (!gelf_getrel(d, static_cast<int>(k), &e))
          throw BadInput(name_ + ": " + elf_errmsg(-1));
        r = {e.r_offset, static_cast<std::uint32_t>(GELF_R_TYPE(e.r_info)),
             static_cast<std::uint32_t>(GELF_R_SYM(e.r_info)), 0};
      }
      if (r.symbol >= symbols_.size())
        throw BadInput(name_ + ": relocation against symbol " + std::to_string(r.symbol) +
                       " out of range");
      it->second.push_back(r);
    }
    // (Assemblers write them in order: sorting is rarely needed.)
    auto byOffset = [](const Reloc &a, const Reloc &b) { return a.offset < b.offset; };
    if (!std::is_sorted(it->second.begin(), it->second.end(), byOffset))
      std::stable_sort(it->second.begin(), it->second.end(), byOffset);
    return it->second;
  }

  // The function or object symbol (any binding) of section i covering
  // offset p, or nullptr.
  const Symbol *covering(std::size_t i, std::int64_t p) {
    // Every section's list at the first call, in one pass over the symbols.
    if (bySection_.empty()) {
      bySection_.resize(sections_.size());
      for (const Symbol &s : symbols_)
        if (s.inSection() && s.size > 0 &&
            (s.type == STT_FUNC || s.type == STT_OBJECT || s.type == STT_GNU_IFUNC ||
             s.type == STT_TLS))
          bySection_[s.section].push_back(&s);
      for (std::vector<const Symbol *> &v : bySection_)
        std::sort(v.begin(), v.end(),
                  [](const Symbol *a, const Symbol *b) { return a->value < b->value; });
    }
    if (p < 0)
      return nullptr;
    const auto at = static_cast<GElf_Addr>(p);
    for (const Symbol *s : bySection_.at(i)) // few per section (-ffunction-sections: one)
      if (s->value <= at && at - s->value < s->size)
        return s;
    return nullptr;
  }

  // Where the items of section i start, as far as this object tells: the
  // values of its symbols there and the targets of relocations pointing
  // into it (sorted, distinct).
  const std::vector<std::int64_t> &itemStarts(std::size_t i) {
    // Computed for every section at the first call, in one pass over the
    // symbols and the relocations (per section, that pass was most of the
    // check's time on objects with thousands of sections).
    if (starts_.empty()) {
      starts_.resize(sections_.size());
      for (const Symbol &s : symbols_)
        if (s.inSection() && s.type != STT_SECTION)
          starts_[s.section].push_back(static_cast<std::int64_t>(s.value));
      for (std::size_t from = 1; from < sections_.size(); ++from) {
        if (!sections_[from].relocations)
          continue;
        const bool code = sections_[from].header.sh_flags & SHF_EXECINSTR;
        for (const Reloc &r : relocations(from)) {
          const Symbol &s = symbols_[r.symbol];
          if (s.type == STT_SECTION && s.inSection())
            starts_[s.section].push_back(static_cast<std::int64_t>(s.value) + r.addend -
                                         addendBiases(machine_, r.type, code).front());
        }
      }
      for (std::vector<std::int64_t> &v : starts_) {
        std::sort(v.begin(), v.end());
        v.erase(std::unique(v.begin(), v.end()), v.end());
      }
    }
    return starts_.at(i);
  }

private:
  void loadSymbols(std::size_t symtab, std::size_t shndxTable) {
    const Section &st = sections_[symtab];
    Elf_Data *d = elf_getdata(st.scn, nullptr);
    Elf_Data *x = shndxTable ? elf_getdata(sections_[shndxTable].scn, nullptr) : nullptr;
    if (!d || st.header.sh_entsize == 0)
      throw BadInput(name_ + ": symbol table cannot be read");
    const std::size_t n = st.header.sh_size / st.header.sh_entsize;
    symbols_.resize(n);
    for (std::size_t k = 0; k < n; ++k) {
      GElf_Sym e;
      Elf32_Word xindex = 0;
      if (!gelf_getsymshndx(d, x, static_cast<int>(k), &e, &xindex))
        throw BadInput(name_ + ": " + elf_errmsg(-1));
      Symbol &s = symbols_[k];
      const char *nm = elf_strptr(elf_, st.header.sh_link, e.st_name);
      s.name = nm ? std::string_view(nm) : std::string_view();
      s.bind = GELF_ST_BIND(e.st_info);
      s.type = GELF_ST_TYPE(e.st_info);
      s.rawShndx = e.st_shndx;
      s.section = e.st_shndx == SHN_XINDEX ? xindex : e.st_shndx;
      s.value = e.st_value;
      s.size = e.st_size;
      if (s.inSection() && s.section >= sections_.size())
        throw BadInput(name_ + ": symbol " + std::string(s.name) + " in a section out of range");
    }
  }

  std::string name_;
  Elf *elf_;
  bool member_;
  std::uint16_t machine_ = 0;
  std::vector<Section> sections_;
  std::vector<Symbol> symbols_;
  std::unordered_map<std::size_t, std::vector<Reloc>> relocs_;
  std::vector<std::vector<const Symbol *>> bySection_; // per section, see covering
  std::vector<std::vector<std::int64_t>> starts_;      // per section, see itemStarts
};

// Width of the field a relocation writes, to mask it from the compared bytes;
// 0 when unknown (then the bytes stay: RELA objects hold zeros there anyway).
std::size_t fieldWidth(std::uint16_t machine, std::uint32_t type) {
  if (machine == EM_X86_64) {
    switch (type) {
    case R_X86_64_64:
    case R_X86_64_PC64:
    case R_X86_64_GOTOFF64:
    case R_X86_64_DTPMOD64:
    case R_X86_64_DTPOFF64:
    case R_X86_64_TPOFF64:
    case R_X86_64_SIZE64:
    case R_X86_64_GOT64:
    case R_X86_64_GOTPCREL64:
    case R_X86_64_GOTPC64:
    case R_X86_64_PLTOFF64:
      return 8;
    case R_X86_64_16:
    case R_X86_64_PC16:
      return 2;
    case R_X86_64_8:
    case R_X86_64_PC8:
      return 1;
    case R_X86_64_NONE:
      return 0;
    default:
      return 4; // PC32, PLT32, 32, 32S, GOTPCREL(X), TLS...: a 32-bit field
    }
  }
  if (machine == EM_AARCH64) {
    switch (type) {
    case R_AARCH64_ABS64:
    case R_AARCH64_PREL64:
      return 8;
    case R_AARCH64_ABS32:
    case R_AARCH64_PREL32:
      return 4;
    case R_AARCH64_ABS16:
    case R_AARCH64_PREL16:
      return 2;
    default:
      return 0; // instruction fields: the rest of the instruction must compare
    }
  }
  return 0;
}

// What the addend of a relocation adds to the address of its target: on
// x86-64 a PC-relative field is followed by the rest of the instruction, so
// `lea .L.str(%rip)` says `.rodata.str + offset - 4` (-5, -6, -8 with an
// immediate operand after the field). The candidates, most likely first. In
// data (a relative jump table: `.L.str.3 - .Ltable`) the field is alone.
// (Static arrays: this runs for every relocation compared.)
constexpr std::int64_t kPcRelBiases[] = {-4, -5, -6, -8, -12};
constexpr std::int64_t kNoBias[] = {0};
std::span<const std::int64_t> addendBiases(std::uint16_t machine, std::uint32_t type, bool code) {
  if (code && machine == EM_X86_64 &&
      (type == R_X86_64_PC32 || type == R_X86_64_PLT32 || type == R_X86_64_GOTPCREL ||
       type == R_X86_64_GOTPCRELX || type == R_X86_64_REX_GOTPCRELX))
    return kPcRelBiases;
  return kNoBias;
}

// What a definition refers to, beside its bytes: the global symbols and the
// string literals (its own and those of the local functions it calls).
struct Refs {
  // Views into the inputs' mapped bytes and string tables, which outlive
  // every comparison (no copies).
  std::set<std::string_view> names;
  std::set<std::string_view> strings;
  // Refers to a local function or code section, or to unnamed local data
  // whose extent is a guess (itemStarts): the bytes alone do not tell.
  bool opaque = false;
  bool leaf() const { return names.empty() && !opaque; }
};

// A sink for canonical forms that keeps a 128-bit hash of what is appended
// instead of the bytes: the fingerprint that the fast comparison compares
// (OdrMethod::Fast). Each 8-byte word goes through two independent mixes,
// each a bijection of its lane (so forms that differ in a single word never
// collide); the length of every chunk is mixed in too, so two fingerprints are
// equal only when the forms were written the same way, chunk by chunk (forms
// written alike that are equal give equal fingerprints, which is all the
// check needs: a needless difference only costs the detailed comparison).
struct Fingerprint {
  std::uint64_t a = 0x243f6a8885a308d3, b = 0x13198a2e03707344;
  void mix(std::uint64_t w) {
    a = (a ^ w) * 0x9e3779b97f4a7c15;
    a ^= a >> 32;
    b = (b + w) * 0xff51afd7ed558ccd;
    b ^= b >> 29;
  }
  void append(const char *p, std::size_t n) {
    mix(n);
    for (; n >= 8; p += 8, n -= 8) {
      std::uint64_t w;
      std::memcpy(&w, p, 8);
      mix(w);
    }
    if (n) {
      std::uint64_t w = 0;
      std::memcpy(&w, p, n);
      mix(w);
    }
  }
  void append(std::string_view v) { append(v.data(), v.size()); }
  Fingerprint &operator+=(std::string_view v) {
    append(v);
    return *this;
  }
  Fingerprint &operator+=(char c) {
    mix(static_cast<unsigned char>(c) | 0x100);
    return *this;
  }
  Fingerprint &operator+=(const Fingerprint &f) {
    mix(f.a);
    mix(f.b);
    return *this;
  }
  // The 16 bytes that stand for the form where forms are compared.
  std::string digest() const {
    std::string d(16, '\0');
    std::memcpy(d.data(), &a, 8);
    std::memcpy(d.data() + 8, &b, 8);
    return d;
  }
};

// A number into a canonical form: its 8 bytes (the forms are compared, not read).
template <class Out> void put(Out &out, std::int64_t v) {
  char bytes[sizeof v];
  std::memcpy(bytes, &v, sizeof v);
  out.append(bytes, sizeof v);
}

// The canonical form of `size` bytes of section `sec` at `value`, appended to
// `out`. `depth` 0 is the definition compared; local targets are described by
// their contents down to depth 1 and by their shape below that (no cycles).
// `Out` is a std::string (the detailed form) or a Fingerprint (its hash).
template <class Out>
void canonical(Object &o, std::size_t sec, GElf_Addr value, GElf_Xword size, int depth, Out &out,
               Refs *refs);

// What a local target at offset t of section `sec` is; `biases` are the
// candidates for t's distance from the start of what is meant (0 when t is
// a symbol's own value).
template <class Out>
void describeLocalTarget(Object &o, std::size_t sec, std::int64_t t,
                         std::span<const std::int64_t> biases, int depth, Out &out, Refs *refs) {
  const GElf_Shdr &h = o.section(sec).header;
  const std::string_view data = o.bytes(sec);
  if (refs && (h.sh_flags & SHF_EXECINSTR))
    refs->opaque = true;
  const auto size = static_cast<std::int64_t>(h.sh_type == SHT_NOBITS ? h.sh_size : data.size());
  if ((h.sh_flags & SHF_MERGE) && (h.sh_flags & SHF_STRINGS) && !data.empty()) {
    // A string literal: its text, wherever this object's string table put it.
    const std::size_t unit = h.sh_entsize ? h.sh_entsize : 1;
    auto isStart = [&](std::int64_t p) {
      if (p < 0 || p >= size || p % static_cast<std::int64_t>(unit))
        return false;
      if (p == 0)
        return true;
      for (std::size_t k = 0; k < unit; ++k)
        if (data[static_cast<std::size_t>(p) - unit + k] != '\0')
          return false;
      return true;
    };
    for (std::int64_t b : biases)
      if (isStart(t - b)) {
        std::size_t end = static_cast<std::size_t>(t - b);
        while (end + unit <= data.size() &&
               data.substr(end, unit).find_first_not_of('\0') != std::string_view::npos)
          end += unit;
        const std::string_view text =
            data.substr(static_cast<std::size_t>(t - b), end - static_cast<std::size_t>(t - b));
        out += "str";
        put(out, b);
        out.append(text);
        out += '\0';
        if (refs)
          refs->strings.emplace(text);
        return;
      }
    out += "str?";
    put(out, t);
    return;
  }
  if ((h.sh_flags & SHF_MERGE) && h.sh_entsize > 0 && !data.empty()) {
    // A constant pool entry (.rodata.cst16...): its bytes.
    const std::int64_t p = t - biases.front();
    const auto unit = static_cast<std::int64_t>(h.sh_entsize);
    if (p >= 0 && p < size) {
      out += "cst";
      put(out, p % unit);
      out.append(
          data.substr(static_cast<std::size_t>(p - p % unit), static_cast<std::size_t>(unit)));
      return;
    }
  }
  for (std::int64_t b : biases)
    if (const Symbol *s = o.covering(sec, t - b)) {
      // A local function or variable: its contents and the place inside it.
      out += "sym";
      put(out, b);
      put(out, t - b - static_cast<std::int64_t>(s->value));
      put(out, s->type);
      if (depth == 0)
        canonical(o, sec, s->value, s->size, depth + 1, out, refs);
      else
        put(out, static_cast<std::int64_t>(s->size));
      return;
    }
  // No symbol there: an unnamed item (a switch table in `.rodata`), which
  // ends where the next item that something points to starts.
  const std::int64_t p = t - biases.front();
  out += "item";
  put(out, biases.front());
  put(out,
      static_cast<std::int64_t>(h.sh_flags & (SHF_WRITE | SHF_ALLOC | SHF_EXECINSTR | SHF_TLS)));
  if (p < 0 || p >= size) {
    put(out, t);
    return;
  }
  if (refs)
    refs->opaque = true;
  const std::vector<std::int64_t> &starts = o.itemStarts(sec);
  const auto next = std::upper_bound(starts.begin(), starts.end(), p);
  const std::int64_t end = next == starts.end() ? size : std::min(*next, size);
  if (depth == 0)
    canonical(o, sec, static_cast<GElf_Addr>(p), static_cast<GElf_Xword>(end - p), depth + 1, out,
              refs);
  else
    put(out, end - p);
}

template <class Out>
void canonical(Object &o, std::size_t sec, GElf_Addr value, GElf_Xword size, int depth, Out &out,
               Refs *refs) {
  const Section &s = o.section(sec);
  const std::string_view data = o.bytes(sec);
  if (s.header.sh_type == SHT_NOBITS) {
    out += "bss";
    put(out, static_cast<std::int64_t>(size));
    return;
  }
  if (value > data.size() || size > data.size() - value)
    throw BadInput(o.name() + ": a symbol runs past the end of its section");
  // The bytes with relocated fields zeroed, written piece by piece as they
  // are read (no copy), and the relocations after them. The relocations are
  // sorted by offset: the ones inside the definition are found by bisection
  // (a local function in a big `.text` of an object built without function
  // sections has a few among thousands).
  const std::string_view body = data.substr(value, size);
  static constexpr char zeros[16] = {};
  put(out, static_cast<std::int64_t>(size));
  GElf_Addr done = 0; // body[0, done) written
  Out relocs{};
  const std::vector<Reloc> &all = o.relocations(sec);
  auto first = std::lower_bound(all.begin(), all.end(), value,
                                [](const Reloc &r, GElf_Addr v) { return r.offset < v; });
  for (auto it = first; it != all.end() && it->offset - value < size; ++it) {
    const Reloc &r = *it;
    const GElf_Addr at = r.offset - value;
    const std::size_t width = std::min<std::size_t>(fieldWidth(o.machine(), r.type), size - at);
    if (at > done)
      out.append(body.data() + done, at - done);
    if (at + width > done) {
      out.append(zeros, at + width - std::max(done, at));
      done = at + width;
    }
    put(relocs, static_cast<std::int64_t>(at));
    put(relocs, r.type);
    const Symbol &target = o.symbols()[r.symbol];
    if (r.symbol == 0 || target.bind != STB_LOCAL) {
      relocs += target.name;
      relocs += '\0';
      put(relocs, r.addend);
      if (refs && !target.name.empty())
        refs->names.emplace(target.name);
    } else if (!target.inSection()) {
      relocs += "abs";
      put(relocs, static_cast<std::int64_t>(target.value) + r.addend);
    } else if (target.type != STT_SECTION) {
      // A local symbol (a renamed static, a string the assembler kept a
      // symbol for): what is at its value, and the addend as it is.
      describeLocalTarget(o, target.section, static_cast<std::int64_t>(target.value), kNoBias,
                          depth, relocs, refs);
      put(relocs, r.addend);
    } else {
      // A section symbol: the addend is the offset of the target, off by
      // the rest of the instruction for a PC-relative field.
      describeLocalTarget(o, target.section, static_cast<std::int64_t>(target.value) + r.addend,
                          addendBiases(o.machine(), r.type, s.header.sh_flags & SHF_EXECINSTR),
                          depth, relocs, refs);
    }
  }
  if (done < size)
    out.append(body.data() + done, size - done);
  out += relocs;
}

bool isCandidate(const Object &o, const Symbol &s) {
  if (!s.inSection() || s.size == 0 || s.name.empty())
    return false;
  if (s.type != STT_FUNC && s.type != STT_OBJECT && s.type != STT_GNU_IFUNC && s.type != STT_TLS)
    return false;
  if (s.bind == STB_WEAK || s.bind == STB_GNU_UNIQUE)
    return true;
  return s.bind == STB_GLOBAL && o.section(s.section).comdat;
}

// Owns the open files: the objects, the archives' Elf handles (members refer
// to them), and nothing else (descriptors are closed once mapped).
struct Inputs {
  std::vector<std::unique_ptr<Object>> objects;
  std::vector<std::vector<std::size_t>> archives; // member indices into objects, per archive
  std::vector<Elf *> archiveHandles;
  std::vector<std::string> unchecked;
  Inputs() = default;
  Inputs(const Inputs &) = delete;
  Inputs &operator=(const Inputs &) = delete;
  ~Inputs() {
    objects.clear(); // members first
    for (Elf *a : archiveHandles)
      elf_end(a);
  }
};

std::string kindOf(std::string_view head) {
  if (head.substr(0, 8) == "!<thin>\n")
    return "a thin archive";
  if (head.substr(0, 4) == std::string_view("BC\xc0\xde", 4) ||
      head.substr(0, 4) == std::string_view("\xde\xc0\x17\x0b", 4))
    return "LLVM bitcode (an LTO input)";
  return "not an ELF object or archive";
}

void load(const std::string &path, Inputs &in) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    throw BadInput(path + ": " + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  char head[8] = {};
  const ssize_t got = ::pread(fd, head, sizeof head, 0);
  const std::string_view h(head, got > 0 ? static_cast<std::size_t>(got) : 0);
  const bool elf = h.substr(0, 4) == "\x7f"
                                     "ELF";
  const bool archive = h == "!<arch>\n";
  if (!elf && !archive) {
    in.unchecked.push_back(path + ": " + kindOf(h));
    return;
  }
  Elf *e = elf_begin(fd, ELF_C_READ_MMAP, nullptr);
  if (!e)
    throw BadInput(path + ": " + elf_errmsg(-1));
  if (elf_kind(e) == ELF_K_ELF) {
    GElf_Ehdr eh;
    if (!gelf_getehdr(e, &eh)) {
      elf_end(e);
      throw BadInput(path + ": " + elf_errmsg(-1));
    }
    if (eh.e_type != ET_REL) {
      elf_end(e);
      in.unchecked.push_back(
          path + ": " + (eh.e_type == ET_DYN ? "a shared library" : "not a relocatable object"));
      return;
    }
    elf_cntl(e, ELF_C_FDDONE);
    in.objects.push_back(std::make_unique<Object>(path, e, false));
    in.objects.back()->load();
    return;
  }
  if (elf_kind(e) != ELF_K_AR) {
    elf_end(e);
    in.unchecked.push_back(path + ": not an ELF object or archive");
    return;
  }
  in.archiveHandles.push_back(e);
  in.archives.emplace_back();
  // The walk ends at the archive's end or at a member header libelf cannot
  // read (it then reports "offset out of range" as at the end): the members
  // after a damaged header are not checked, which can only hide findings.
  Elf_Cmd cmd = ELF_C_READ_MMAP;
  while (Elf *m = elf_begin(fd, cmd, e)) {
    // (libelf keeps the member header in the archive's state: read it
    // before elf_next moves on.)
    const Elf_Arhdr *ah = elf_getarhdr(m);
    const std::string member = ah && ah->ar_name ? ah->ar_name : "?";
    cmd = elf_next(m);
    if (member == "/" || member == "//" || member == "/SYM64/") {
      elf_end(m);
      continue;
    }
    const std::string name = path + "(" + member + ")";
    GElf_Ehdr eh;
    if (elf_kind(m) != ELF_K_ELF || !gelf_getehdr(m, &eh) || eh.e_type != ET_REL) {
      char mhead[8] = {};
      std::size_t raw = 0;
      const char *bytes = elf_rawfile(m, &raw);
      if (bytes)
        std::memcpy(mhead, bytes, std::min<std::size_t>(raw, sizeof mhead));
      in.unchecked.push_back(name + ": " +
                             kindOf(std::string_view(mhead, std::min<std::size_t>(raw, 8))));
      elf_end(m);
      continue;
    }
    in.archives.back().push_back(in.objects.size());
    in.objects.push_back(std::make_unique<Object>(name, m, true));
    in.objects.back()->load();
  }
  elf_cntl(e, ELF_C_FDDONE);
}

// Which objects the link takes: every named object, and the archive members
// that define a symbol left undefined, to a fixed point (lld resolves
// archives so; GNU ld's one pass over each archive takes a subset).
std::vector<bool> extracted(const Inputs &in) {
  std::vector<bool> take(in.objects.size(), false);
  std::unordered_set<std::string_view> defined;
  std::deque<std::string_view> pending;
  auto add = [&](std::size_t k) {
    take[k] = true;
    for (const Symbol &s : in.objects[k]->symbols())
      if (s.bind != STB_LOCAL && s.defined())
        defined.insert(s.name);
    for (const Symbol &s : in.objects[k]->symbols())
      if (s.bind == STB_GLOBAL && !s.defined() && !s.name.empty())
        pending.push_back(s.name);
  };
  std::unordered_map<std::string_view, std::size_t> provider; // first member defining a name
  for (std::size_t k = 0; k < in.objects.size(); ++k) {
    if (!in.objects[k]->member()) {
      add(k);
      continue;
    }
    for (const Symbol &s : in.objects[k]->symbols())
      if (s.bind != STB_LOCAL && s.defined() && !s.name.empty())
        provider.try_emplace(s.name, k);
  }
  while (!pending.empty()) {
    const std::string_view name = pending.front();
    pending.pop_front();
    if (defined.contains(name))
      continue;
    const auto it = provider.find(name);
    if (it != provider.end() && !take[it->second])
      add(it->second);
  }
  return take;
}

// A definition: the index of its object in Inputs::objects, and its symbol.
using Definition = std::pair<std::size_t, const Symbol *>;

// Every weak/COMDAT definition by name, in command-line order, and the names
// that some object defines strongly (that definition wins in any order).
struct Candidates {
  std::map<std::string_view, std::vector<Definition>> byName;
  std::unordered_set<std::string_view> strong;
};

Candidates collectCandidates(const Inputs &in, const std::vector<bool> &take, OdrReport &report) {
  Candidates c;
  for (std::size_t k = 0; k < in.objects.size(); ++k) {
    if (!take[k])
      continue;
    ++report.objects;
    const Object &o = *in.objects[k];
    for (const Symbol &s : o.symbols()) {
      if (isCandidate(o, s))
        c.byName[s.name].emplace_back(k, &s);
      else if (s.bind == STB_GLOBAL && s.inSection())
        c.strong.insert(s.name);
    }
  }
  return c;
}

// Whether two bodies of one function that differ in their bytes are two
// definitions, or one definition compiled in two contexts: the inliner and
// the local clones it makes decide per object (in a -O2 build of one set of
// flags, a third of the inline functions of a CLI11 program differ in their
// bytes between objects).
class InliningJudge {
public:
  InliningJudge(const Inputs &in, const std::vector<bool> &take) : in_(in) {
    // The first definition of every global name, for what a callee refers to.
    for (std::size_t k = 0; k < in.objects.size(); ++k)
      if (take[k])
        for (const Symbol &s : in.objects[k]->symbols())
          if (s.bind != STB_LOCAL && s.inSection() && !s.name.empty())
            definition_.try_emplace(s.name, k, &s);
  }

  // Two definitions unless neither calls anything (a leaf's code is its
  // source's) or one holds strings that no inlining explains (an assertion,
  // a message, a macro's text).
  bool differ(const Refs &a, const Refs &b) {
    if (a.leaf() && b.leaf())
      return true;
    return !explained(a, b) || !explained(b, a);
  }

private:
  // The strings `callee`'s definition refers to, or nullptr if unknown.
  const std::set<std::string_view> *stringsOf(std::string_view callee) {
    const auto d = definition_.find(callee);
    // Not in the link: a C function's body is never in a header, so it
    // brings no strings; a C++ one's may be (libstdc++'s extern templates
    // are inlined from their headers): unknown.
    if (d == definition_.end())
      return callee.starts_with("_Z") ? nullptr : &none_;
    auto [it, fresh] = calleeStrings_.try_emplace(callee);
    if (fresh) {
      Refs r;
      Fingerprint ignored; // only the references are wanted
      const auto &[k, s] = d->second;
      canonical(*in_.objects[k], s->section, s->value, s->size, 0, ignored, &r);
      it->second = std::move(r.strings);
    }
    return &it->second;
  }

  // Whether the strings only `a` holds can come from a callee that `b`
  // calls and `a` inlined (at least at one of its calls): a C++ function
  // not in the link (its body is unknown), or one whose definition holds
  // them.
  bool explained(const Refs &a, const Refs &b) {
    std::set<std::string_view> extra;
    std::set_difference(a.strings.begin(), a.strings.end(), b.strings.begin(), b.strings.end(),
                        std::inserter(extra, extra.end()));
    for (std::string_view callee : b.names) {
      if (extra.empty())
        return true;
      const std::set<std::string_view> *strings = stringsOf(callee);
      if (!strings)
        return true;
      std::erase_if(extra, [&](std::string_view x) { return strings->contains(x); });
    }
    return extra.empty();
  }

  const Inputs &in_;
  std::unordered_map<std::string_view, Definition> definition_;
  std::unordered_map<std::string_view, std::set<std::string_view>> calleeStrings_; // memo
  const std::set<std::string_view> none_;
};

// The variants of one name's definitions, grouped by their canonical form
// (or its fingerprint, per `method`), with what each variant refers to in
// `refs` (filled only once there are two variants).
OdrFinding groupVariants(const Inputs &in, std::string_view name,
                         const std::vector<Definition> &defs, OdrMethod method,
                         std::vector<Refs> &refs) {
  std::vector<std::string> forms;
  OdrFinding finding;
  finding.symbol = std::string(name);
  finding.function =
      defs.front().second->type != STT_OBJECT && defs.front().second->type != STT_TLS;
  for (const auto &[k, s] : defs) {
    // The definition's form, or in the fast comparison its fingerprint:
    // equal forms give equal fingerprints, so grouping the definitions by
    // either gives the same variants (but for a 128-bit hash collision).
    std::string form;
    if (method == OdrMethod::Detailed) {
      put(form, s->type);
      canonical(*in.objects[k], s->section, s->value, s->size, 0, form, nullptr);
    } else {
      Fingerprint f;
      put(f, s->type);
      canonical(*in.objects[k], s->section, s->value, s->size, 0, f, nullptr);
      form = f.digest();
    }
    const auto same = std::find(forms.begin(), forms.end(), form);
    if (same != forms.end()) {
      finding.variants[static_cast<std::size_t>(same - forms.begin())].push_back(
          in.objects[k]->name());
      continue;
    }
    // What it refers to, only for a new variant (most are the first).
    Refs r;
    Fingerprint again; // only the references are wanted
    if (!forms.empty() && refs.empty()) {
      const auto &[k0, s0] = defs.front();
      canonical(*in.objects[k0], s0->section, s0->value, s0->size, 0, again, &refs.emplace_back());
      again = {};
    }
    if (!forms.empty())
      canonical(*in.objects[k], s->section, s->value, s->size, 0, again, &r);
    forms.push_back(std::move(form));
    if (forms.size() > 1)
      refs.push_back(std::move(r));
    finding.variants.push_back({in.objects[k]->name()});
  }
  return finding;
}

// Merges a function's variants that are one definition (the judge's differ()
// is false), each group compared by its first variant.
void mergeOneDefinition(OdrFinding &finding, const std::vector<Refs> &refs, InliningJudge &judge) {
  std::vector<std::vector<std::string>> merged;
  std::vector<std::size_t> leader; // the variant each group compares by
  for (std::size_t v = 0; v < finding.variants.size(); ++v) {
    std::size_t g = 0;
    while (g < merged.size() && judge.differ(refs[leader[g]], refs[v]))
      ++g;
    if (g == merged.size()) {
      merged.emplace_back();
      leader.push_back(v);
    }
    merged[g].insert(merged[g].end(), finding.variants[v].begin(), finding.variants[v].end());
  }
  finding.variants = std::move(merged);
}

OdrReport checkInputs(const std::vector<std::string> &paths, OdrMethod method) {
  Inputs in;
  for (const std::string &p : paths)
    load(p, in);
  OdrReport report;
  report.unchecked = in.unchecked;
  const std::vector<bool> take = extracted(in);
  const Candidates candidates = collectCandidates(in, take, report);
  InliningJudge judge(in, take);
  for (const auto &[name, defs] : candidates.byName) {
    if (defs.size() < 2 || candidates.strong.contains(name))
      continue;
    ++report.compared;
    // Objects with REL relocations (32-bit x86, ARM) keep addends in the
    // bytes, where section offsets differ between objects: not compared.
    if (std::any_of(defs.begin(), defs.end(), [&](const auto &d) {
          return in.objects[d.first]->section(d.second->section).rel;
        }))
      continue;
    std::vector<Refs> refs;
    OdrFinding finding = groupVariants(in, name, defs, method, refs);
    if (finding.variants.size() > 1 && finding.function)
      mergeOneDefinition(finding, refs, judge);
    if (finding.variants.size() > 1)
      report.findings.push_back(std::move(finding));
  }
  return report;
}

} // namespace

Expected<OdrReport> checkOdr(const std::vector<std::string> &paths, OdrMethod method) {
  if (elf_version(EV_CURRENT) == EV_NONE)
    return fail(std::string("libelf: ") + elf_errmsg(-1));
  try {
    return checkInputs(paths, method);
  } catch (const BadInput &e) {
    return fail(e.what());
  } catch (const std::exception &e) {
    return fail(std::string("internal error: ") + e.what());
  }
}

std::string odrRecordField(const OdrReport &report) {
  if (report.findings.empty())
    return "";
  std::string names;
  std::size_t listed = 0;
  for (const OdrFinding &f : report.findings) {
    if (listed == kOdrRecordNames || names.size() + 1 + f.symbol.size() > kOdrRecordChars)
      break;
    names += (listed++ ? "," : ":") + f.symbol;
  }
  return " odr=" + std::to_string(report.findings.size()) + names;
}

std::string describeOdrFindings(const OdrReport &report, std::size_t limit) {
  std::string out;
  std::size_t shown = 0;
  for (const OdrFinding &f : report.findings) {
    if (shown == limit) {
      out += "; and " + std::to_string(report.findings.size() - shown) + " more";
      break;
    }
    if (shown++)
      out += "; ";
    out += llvm::demangle(f.symbol) + " (";
    for (std::size_t v = 0; v < f.variants.size(); ++v) {
      if (v)
        out += " | ";
      for (std::size_t k = 0; k < f.variants[v].size(); ++k)
        out += (k ? ", " : "") + f.variants[v][k];
    }
    out += ")";
  }
  return out;
}

} // namespace alea::linker
