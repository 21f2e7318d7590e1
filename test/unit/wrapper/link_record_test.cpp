// The link record object (link_record.hpp): written for both ELF classes and
// both byte orders, then read back with libelf (an independent ELF reader):
// header fields copied from the target, the sections a linker needs, the note
// words in the target's byte order, the neutral GNU property on x86 and
// AArch64. Also the sniffing of link inputs (ELF, bitcode, archives).
#include "alea/wrapper/link_record.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <gelf.h>
#include <libelf.h>
#include <map>

using namespace alea::wrapper;

namespace {

constexpr std::uint16_t X86_64 = 62, I386 = 3, PPC64 = 21, MIPS = 8, AARCH64 = 183, RISCV = 243;

ElfTarget target(std::uint8_t cls, std::uint8_t data, std::uint16_t machine,
                 std::uint32_t flags = 0, std::uint8_t osabi = 0) {
  ElfTarget t;
  t.elfClass = cls;
  t.data = data;
  t.machine = machine;
  t.flags = flags;
  t.osabi = osabi;
  return t;
}

struct Note {
  std::string name;
  std::uint32_t type = 0;
  std::string desc;
};

struct SectionSeen {
  GElf_Shdr header{};
  std::vector<Note> notes;
};

// Everything libelf says about an object in memory.
struct Parsed {
  GElf_Ehdr ehdr{};
  std::map<std::string, SectionSeen> sections;
  std::size_t count = 0; // sections, including index 0
};

Parsed parse(std::string bytes) {
  Parsed out;
  EXPECT_NE(elf_version(EV_CURRENT), EV_NONE);
  Elf *elf = elf_memory(bytes.data(), bytes.size());
  EXPECT_NE(elf, nullptr) << elf_errmsg(-1);
  if (!elf)
    return out;
  EXPECT_EQ(elf_kind(elf), ELF_K_ELF);
  EXPECT_NE(gelf_getehdr(elf, &out.ehdr), nullptr) << elf_errmsg(-1);
  std::size_t shstrndx = 0;
  EXPECT_EQ(elf_getshdrstrndx(elf, &shstrndx), 0) << elf_errmsg(-1);
  EXPECT_EQ(elf_getshdrnum(elf, &out.count), 0);
  for (Elf_Scn *scn = elf_nextscn(elf, nullptr); scn; scn = elf_nextscn(elf, scn)) {
    SectionSeen seen;
    EXPECT_NE(gelf_getshdr(scn, &seen.header), nullptr);
    const char *name = elf_strptr(elf, shstrndx, seen.header.sh_name);
    EXPECT_NE(name, nullptr);
    if (seen.header.sh_type == SHT_NOTE) {
      // elf_getdata translates the note words to host order (libelf's note type).
      Elf_Data *data = elf_getdata(scn, nullptr);
      EXPECT_NE(data, nullptr) << elf_errmsg(-1);
      GElf_Nhdr nhdr;
      std::size_t offset = 0, nameAt = 0, descAt = 0;
      while (data && (offset = gelf_getnote(data, offset, &nhdr, &nameAt, &descAt)) > 0) {
        const char *base = static_cast<const char *>(data->d_buf);
        seen.notes.push_back({std::string(base + nameAt, nhdr.n_namesz), nhdr.n_type,
                              std::string(base + descAt, nhdr.n_descsz)});
      }
    }
    out.sections[name ? name : ""] = seen;
  }
  elf_end(elf);
  return out;
}

std::uint32_t word(const std::string &s, std::size_t at, bool big) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    const std::uint32_t b = static_cast<unsigned char>(s[at + i]);
    v |= big ? b << (8 * (3 - i)) : b << (8 * i);
  }
  return v;
}

const std::string Descriptor =
    "alea-link-v1 seed=0x000000000000002a factors=link-order,section-order";

} // namespace

// --- the object ---------------------------------------------------------------------

class WriterForEachTarget : public ::testing::TestWithParam<ElfTarget> {};

TEST_P(WriterForEachTarget, LibelfReadsTheHeaderTheSectionsAndTheNote) {
  const ElfTarget t = GetParam();
  const std::string object = writeLinkRecordObject(t, Descriptor);
  const Parsed p = parse(object);
  EXPECT_EQ(p.ehdr.e_ident[EI_CLASS], t.elfClass);
  EXPECT_EQ(p.ehdr.e_ident[EI_DATA], t.data);
  EXPECT_EQ(p.ehdr.e_ident[EI_VERSION], EV_CURRENT);
  EXPECT_EQ(p.ehdr.e_ident[EI_OSABI], t.osabi);
  EXPECT_EQ(p.ehdr.e_type, ET_REL);
  EXPECT_EQ(p.ehdr.e_machine, t.machine);
  EXPECT_EQ(p.ehdr.e_flags, t.flags);
  EXPECT_EQ(p.ehdr.e_version, EV_CURRENT);
  EXPECT_EQ(p.ehdr.e_phnum, 0);
  EXPECT_EQ(p.ehdr.e_ehsize, t.elfClass == ELFCLASS64 ? 64 : 52);
  EXPECT_EQ(p.ehdr.e_shentsize, t.elfClass == ELFCLASS64 ? 64 : 40);

  ASSERT_TRUE(p.sections.count(".note.alea"));
  const SectionSeen &alea = p.sections.at(".note.alea");
  EXPECT_EQ(alea.header.sh_type, SHT_NOTE);
  EXPECT_EQ(alea.header.sh_flags, SHF_ALLOC);
  EXPECT_EQ(alea.header.sh_addralign, 4u);
  EXPECT_EQ(alea.header.sh_offset % 4, 0u);
  ASSERT_EQ(alea.notes.size(), 1u);
  EXPECT_EQ(alea.notes[0].name, std::string("alea", 5)); // namesz counts the NUL
  EXPECT_EQ(alea.notes[0].type, ::alea::kLinkNoteType);
  EXPECT_EQ(alea.notes[0].desc, Descriptor + '\0');
  // The raw words are in the target's byte order (libelf translated them above).
  const bool big = t.data == ELFDATA2MSB;
  EXPECT_EQ(word(object, alea.header.sh_offset, big), 5u);
  EXPECT_EQ(word(object, alea.header.sh_offset + 4, big), Descriptor.size() + 1);
  EXPECT_EQ(word(object, alea.header.sh_offset + 8, big), 2u);
  EXPECT_EQ(alea.header.sh_size % 4, 0u);

  ASSERT_TRUE(p.sections.count(".note.GNU-stack")); // no executable stack with GNU ld
  EXPECT_EQ(p.sections.at(".note.GNU-stack").header.sh_size, 0u);
  EXPECT_EQ(p.sections.at(".note.GNU-stack").header.sh_flags, 0u);
  ASSERT_TRUE(p.sections.count(".shstrtab"));
  EXPECT_EQ(p.sections.at(".shstrtab").header.sh_type, SHT_STRTAB);
  EXPECT_FALSE(p.sections.count(".symtab"));
}

INSTANTIATE_TEST_SUITE_P(ClassesAndByteOrders, WriterForEachTarget,
                         ::testing::Values(target(ELFCLASS64, ELFDATA2LSB, X86_64),
                                           target(ELFCLASS32, ELFDATA2LSB, I386),
                                           target(ELFCLASS64, ELFDATA2MSB, PPC64, 2),
                                           target(ELFCLASS32, ELFDATA2MSB, MIPS, 0x70001007, 0),
                                           target(ELFCLASS64, ELFDATA2LSB, RISCV, 0x5, 0),
                                           target(ELFCLASS64, ELFDATA2LSB, X86_64, 0,
                                                  9 /* FreeBSD */),
                                           target(ELFCLASS64, ELFDATA2MSB, AARCH64)),
                         [](const ::testing::TestParamInfo<ElfTarget> &info) {
                           const ElfTarget &t = info.param;
                           return std::string(t.elfClass == ELFCLASS64 ? "Elf64" : "Elf32") +
                                  (t.data == ELFDATA2LSB ? "Lsb" : "Msb") + "Machine" +
                                  std::to_string(t.machine) + "Osabi" + std::to_string(t.osabi);
                         });

TEST(Writer, X86AndAArch64ClaimEveryAndFeatureSoTheOutputKeepsTheOthers) {
  struct Case {
    ElfTarget t;
    std::uint32_t type, bits, descSize;
  };
  for (const Case &c : {Case{target(ELFCLASS64, ELFDATA2LSB, X86_64), 0xc0000002, 3, 16},
                        Case{target(ELFCLASS32, ELFDATA2LSB, I386), 0xc0000002, 3, 12},
                        Case{target(ELFCLASS32, ELFDATA2LSB, X86_64), 0xc0000002, 3, 12}, // x32
                        Case{target(ELFCLASS64, ELFDATA2LSB, AARCH64), 0xc0000000, 7, 16},
                        Case{target(ELFCLASS64, ELFDATA2MSB, AARCH64), 0xc0000000, 7, 16}}) {
    const Parsed p = parse(writeLinkRecordObject(c.t, Descriptor));
    ASSERT_TRUE(p.sections.count(".note.gnu.property")) << c.t.machine;
    const SectionSeen &s = p.sections.at(".note.gnu.property");
    EXPECT_EQ(s.header.sh_type, SHT_NOTE);
    EXPECT_EQ(s.header.sh_flags, SHF_ALLOC);
    EXPECT_EQ(s.header.sh_addralign, c.t.elfClass == ELFCLASS64 ? 8u : 4u);
    EXPECT_EQ(s.header.sh_offset % s.header.sh_addralign, 0u);
    ASSERT_EQ(s.notes.size(), 1u);
    EXPECT_EQ(s.notes[0].name, std::string("GNU", 4));
    EXPECT_EQ(s.notes[0].type, 5u); // NT_GNU_PROPERTY_TYPE_0
    ASSERT_EQ(s.notes[0].desc.size(), c.descSize);
    const bool big = c.t.data == ELFDATA2MSB;
    EXPECT_EQ(word(s.notes[0].desc, 0, big), c.type); // pr_type
    EXPECT_EQ(word(s.notes[0].desc, 4, big), 4u);     // pr_datasz
    EXPECT_EQ(word(s.notes[0].desc, 8, big), c.bits); // IBT|SHSTK, BTI|PAC|GCS
  }
  for (std::uint16_t m : {PPC64, MIPS, RISCV})
    EXPECT_FALSE(parse(writeLinkRecordObject(target(ELFCLASS64, ELFDATA2LSB, m), Descriptor))
                     .sections.count(".note.gnu.property"));
}

TEST(Writer, SameInputSameBytes) {
  const ElfTarget t = target(ELFCLASS64, ELFDATA2LSB, X86_64);
  EXPECT_EQ(writeLinkRecordObject(t, Descriptor), writeLinkRecordObject(t, Descriptor));
  EXPECT_NE(writeLinkRecordObject(t, Descriptor), writeLinkRecordObject(t, Descriptor + ",x"));
}

TEST(Writer, DescriptorPaddingForEveryLength) {
  // descsz counts the NUL; the section stays a whole number of 4-byte words.
  for (std::size_t n = 1; n <= 8; ++n) {
    const std::string text(n, 'x');
    const Parsed p = parse(writeLinkRecordObject(target(ELFCLASS32, ELFDATA2MSB, MIPS), text));
    const SectionSeen &s = p.sections.at(".note.alea");
    ASSERT_EQ(s.notes.size(), 1u);
    EXPECT_EQ(s.notes[0].desc, text + '\0');
    EXPECT_EQ(s.header.sh_size, 12 + 8 + ((n + 1 + 3) & ~std::size_t{3}));
  }
}

// --- the descriptor -----------------------------------------------------------------

TEST(LinkNoteText, SeedFactorsAndSkipped) {
  EXPECT_EQ(linkNoteText(42, {"link-order", "section-order"}, {}), Descriptor);
  EXPECT_EQ(linkNoteText(0xfeed, {"link-order"}, {"section-order"}),
            "alea-link-v1 seed=0x000000000000feed factors=link-order skipped=section-order");
  EXPECT_EQ(linkNoteText(~0ULL, {}, {}), "alea-link-v1 seed=0xffffffffffffffff factors=");
}

// --- sniffing link inputs -----------------------------------------------------------

TEST(InspectInput, ElfHeadersRoundTripThroughTheWriter) {
  for (const ElfTarget &t : {target(ELFCLASS64, ELFDATA2LSB, X86_64, 0, 3),
                             target(ELFCLASS32, ELFDATA2MSB, MIPS, 0x70001007),
                             target(ELFCLASS64, ELFDATA2MSB, PPC64, 2)}) {
    ElfTarget seen;
    EXPECT_EQ(inspectInput(writeLinkRecordObject(t, "x").substr(0, 64), &seen),
              InputKind::ElfRelocatable);
    EXPECT_EQ(seen, t);
  }
}

TEST(InspectInput, KindsByMagic) {
  EXPECT_EQ(inspectInput(std::string("BC\xc0\xde\x35\x14", 6)), InputKind::Bitcode);
  EXPECT_EQ(inspectInput(std::string("\xde\xc0\x17\x0b\0\0\0\0", 8)), InputKind::Bitcode);
  EXPECT_EQ(inspectInput("!<arch>\n/               "), InputKind::Archive);
  EXPECT_EQ(inspectInput("!<thin>\n"), InputKind::ThinArchive);
  EXPECT_EQ(inspectInput("/* GNU ld script */ GROUP ( libc.so.6 )"), InputKind::Other);
  EXPECT_EQ(inspectInput("\x7f"
                         "ELF"),
            InputKind::Other); // truncated
  std::string shared = writeLinkRecordObject(target(ELFCLASS64, ELFDATA2LSB, X86_64), "x");
  shared[16] = 3; // ET_DYN
  EXPECT_EQ(inspectInput(shared), InputKind::ElfShared);
  shared[16] = 2; // ET_EXEC
  EXPECT_EQ(inspectInput(shared), InputKind::ElfOther);
}

namespace {

std::string arHeader(const std::string &name, std::size_t size) {
  char buf[61];
  std::snprintf(buf, sizeof buf, "%-16s%-12s%-6s%-6s%-8s%-10zu`\n", name.c_str(), "0", "0", "0",
                "644", size);
  return std::string(buf, 60);
}

} // namespace

TEST(FirstArchiveMember, SkipsSymbolAndNameTables) {
  std::string ar = "!<arch>\n";
  ar += arHeader("/", 5) + "12345" + "\n"; // odd size: one padding byte
  ar += arHeader("//", 4) + "ab/\n";
  const std::uint64_t memberData = ar.size() + 60;
  ar += arHeader("a.o/", 8) + "\x7f"
                              "ELFxxxx";
  auto readAt = [&ar](std::uint64_t at, std::size_t n) -> std::optional<std::string> {
    if (at >= ar.size())
      return std::nullopt;
    return ar.substr(at, n);
  };
  EXPECT_EQ(firstArchiveMember(readAt), memberData);
  // BSD long names: the name sits before the data.
  std::string bsd = "!<arch>\n" + arHeader("__.SYMDEF SORTED", 2) + "xx" + arHeader("#1/12", 16) +
                    std::string("long_name.o\0", 12) +
                    "\x7f"
                    "ELF";
  auto readBsd = [&bsd](std::uint64_t at, std::size_t n) -> std::optional<std::string> {
    if (at >= bsd.size())
      return std::nullopt;
    return bsd.substr(at, n);
  };
  EXPECT_EQ(firstArchiveMember(readBsd), 8u + 60 + 2 + 60 + 12);
  std::string broken = "!<arch>\nnot a header";
  auto readBroken = [&broken](std::uint64_t at, std::size_t n) -> std::optional<std::string> {
    return at < broken.size() ? std::optional<std::string>(broken.substr(at, n)) : std::nullopt;
  };
  EXPECT_FALSE(firstArchiveMember(readBroken));
}

// --- GNU ld's executable stack: .note.GNU-stack of an object ---------------------

namespace {

ByteReader readerOf(const std::string &bytes) {
  return [bytes](std::uint64_t at, std::size_t n) -> std::optional<std::string> {
    if (at > bytes.size())
      return std::nullopt;
    return bytes.substr(at, n);
  };
}

// The record object with its .note.GNU-stack renamed (no note) or made
// executable (SHF_EXECINSTR), found with libelf.
std::string withStackNote(std::string obj, bool remove, bool executable) {
  elf_version(EV_CURRENT);
  Elf *e = elf_memory(obj.data(), obj.size());
  GElf_Ehdr eh;
  gelf_getehdr(e, &eh);
  std::size_t strndx = 0;
  elf_getshdrstrndx(e, &strndx);
  for (Elf_Scn *scn = nullptr; (scn = elf_nextscn(e, scn));) {
    GElf_Shdr sh;
    gelf_getshdr(scn, &sh);
    if (std::string(elf_strptr(e, strndx, sh.sh_name)) != ".note.GNU-stack")
      continue;
    const std::size_t header = eh.e_shoff + elf_ndxscn(scn) * eh.e_shentsize;
    const bool big = eh.e_ident[EI_DATA] == ELFDATA2MSB;
    const bool is64 = eh.e_ident[EI_CLASS] == ELFCLASS64;
    if (executable) // sh_flags starts at byte 8; its low byte holds SHF_EXECINSTR
      obj[header + 8 + (big ? (is64 ? 7 : 3) : 0)] |= SHF_EXECINSTR;
  }
  elf_end(e);
  if (remove) // ".note.GNU-stacX": no section of that name any more
    obj[obj.find(".note.GNU-stack") + 14] = 'X';
  return obj;
}

} // namespace

TEST(StackNote, PresentMissingOrExecutableInEveryClassAndByteOrder) {
  for (const ElfTarget &t :
       {target(ELFCLASS64, ELFDATA2LSB, X86_64), target(ELFCLASS32, ELFDATA2LSB, I386),
        target(ELFCLASS64, ELFDATA2MSB, PPC64), target(ELFCLASS32, ELFDATA2MSB, MIPS)}) {
    const std::string obj = writeLinkRecordObject(t, "x");
    EXPECT_EQ(stackNoteOf(readerOf(obj)), StackNote::Present);
    EXPECT_EQ(stackNoteOf(readerOf(withStackNote(obj, true, false))), StackNote::Missing);
    EXPECT_EQ(stackNoteOf(readerOf(withStackNote(obj, false, true))), StackNote::Executable);
  }
}

TEST(StackNote, WhatIsNotAReadableObjectIsUnknown) {
  const std::string obj = writeLinkRecordObject(target(ELFCLASS64, ELFDATA2LSB, X86_64), "x");
  EXPECT_EQ(stackNoteOf(readerOf(obj.substr(0, 64))), StackNote::Unknown); // no section table
  EXPECT_EQ(stackNoteOf(readerOf("!<arch>\n")), StackNote::Unknown);
  EXPECT_EQ(stackNoteOf(readerOf("")), StackNote::Unknown);
}

TEST(ArchiveMembers, EveryRealMemberInOrder) {
  std::string ar = "!<arch>\n";
  ar += arHeader("/", 5) + "12345" + "\n";
  ar += arHeader("//", 4) + "ab/\n";
  const std::uint64_t first = ar.size() + 60;
  ar += arHeader("a.o/", 3) + "aaa" + "\n";
  const std::uint64_t second = ar.size() + 60;
  ar += arHeader("b.o/", 2) + "bb";
  std::vector<std::uint64_t> seen;
  EXPECT_TRUE(forEachArchiveMember(readerOf(ar), [&](std::uint64_t at) {
    seen.push_back(at);
    return true;
  }));
  EXPECT_EQ(seen, (std::vector<std::uint64_t>{first, second}));
  seen.clear(); // the visitor stops the walk
  EXPECT_TRUE(forEachArchiveMember(readerOf(ar), [&](std::uint64_t at) {
    seen.push_back(at);
    return false;
  }));
  EXPECT_EQ(seen.size(), 1u);
  EXPECT_FALSE(forEachArchiveMember(readerOf("!<arch>\nnot a header at all, not sixty bytes"),
                                    [](std::uint64_t) { return true; }));
}
