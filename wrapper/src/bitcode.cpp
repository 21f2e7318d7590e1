// The target triple of a bitcode file and the ELF target it stands for
// (bitcode.hpp). The container, after LLVM's "LLVM Bitcode File Format"
// (docs/BitCodeFormat.rst): a stream of bits read from little-endian bytes,
// least significant bit first; at the top level (abbreviation IDs 2 bits wide)
// a row of blocks, each `ENTER_SUBBLOCK(1) blockid:vbr8 abbrevwidth:vbr4
// <align32> numwords:32` followed by numwords words. Since LLVM 5 a module is
// followed by a SYMTAB block (id 25) holding one blob, the irsymtab, and a
// STRTAB block (id 23) holding one blob, the string table the irsymtab's
// strings point into. Each blob is an abbreviated record `[1, blob]` whose
// abbreviation is defined just before it in the same block. We skip the other
// blocks by their length and read nothing but those two blob's positions, the
// irsymtab header and the triple's bytes.
#include "alea/wrapper/bitcode.hpp"

#include "alea/lists.hpp"

#include <cstdint>
#include <vector>

namespace alea::wrapper {
namespace {

constexpr unsigned kStrtabBlockId = 23, kSymtabBlockId = 25; // LLVMBitCodes.h BlockIDs
constexpr std::uint64_t kBlobRecordCode = 1;                 // STRTAB_BLOB, SYMTAB_BLOB
// Abbreviation IDs every block has (BitCodeEnums.h FixedAbbrevIDs).
constexpr std::uint64_t kEndBlock = 0, kEnterSubblock = 1, kDefineAbbrev = 2, kUnabbrevRecord = 3;
// Operand encodings of DEFINE_ABBREV.
constexpr std::uint64_t kFixed = 1, kVbr = 2, kBlob = 5;
// irsymtab::storage::Header: Version, then Words and {offset, size} pairs;
// TargetTriple is the Str after Producer and four Ranges.
constexpr std::uint32_t kSymtabVersion = 3;
constexpr std::size_t kTripleAt = 4 + 8 * 5, kHeaderSize = kTripleAt + 8;
// Bounds on what one input may make us read.
constexpr std::size_t kBlockPrefix = 64, kMaxTriple = 256;

std::uint32_t le32(std::string_view b, std::size_t at) {
  std::uint32_t v = 0;
  for (std::size_t i = 0; i < 4; ++i)
    v |= static_cast<std::uint32_t>(static_cast<unsigned char>(b[at + i])) << (8 * i);
  return v;
}

class BitReader {
public:
  explicit BitReader(std::string_view bytes) : bytes_(bytes) {}

  bool fixed(unsigned width, std::uint64_t &out) {
    if (width > 64)
      return false;
    out = 0;
    for (unsigned i = 0; i < width; ++i, ++pos_) {
      if (pos_ >= bytes_.size() * 8)
        return false;
      const unsigned bit = static_cast<unsigned char>(bytes_[pos_ / 8]) >> (pos_ % 8) & 1u;
      out |= std::uint64_t{bit} << i;
    }
    return true;
  }

  // Chunks of `width` bits, the high bit of each saying "more follows".
  bool vbr(unsigned width, std::uint64_t &out) {
    if (width < 2 || width > 32)
      return false;
    out = 0;
    for (unsigned shift = 0; shift < 64; shift += width - 1) {
      std::uint64_t chunk;
      if (!fixed(width, chunk))
        return false;
      out |= (chunk & ((std::uint64_t{1} << (width - 1)) - 1)) << shift;
      if (!(chunk >> (width - 1)))
        return true;
    }
    return false;
  }

  void align32() { pos_ = (pos_ + 31) / 32 * 32; }
  std::size_t bytePosition() const { return pos_ / 8; }

private:
  std::string_view bytes_;
  std::size_t pos_ = 0;
};

struct AbbrevOp {
  bool literal = false;
  std::uint64_t encoding = 0; // kFixed, kVbr, kBlob (others: we give up)
  std::uint64_t value = 0;    // the literal, or the width of kFixed/kVbr
};

// Where the blob of the block's first `[1, blob]` record starts, relative to
// the block's body, and its length; `prefix` is the start of the body (the
// abbreviation and the record's head fit in it).
std::optional<std::pair<std::uint64_t, std::uint64_t>> blobSpan(std::string_view prefix,
                                                                unsigned width) {
  BitReader r(prefix);
  std::vector<std::vector<AbbrevOp>> abbrevs;
  while (true) {
    std::uint64_t id;
    if (!r.fixed(width, id) || id == kEndBlock || id == kEnterSubblock)
      return std::nullopt;
    if (id == kDefineAbbrev) {
      std::uint64_t count;
      if (!r.vbr(5, count) || count > 16)
        return std::nullopt;
      std::vector<AbbrevOp> ops(count);
      for (AbbrevOp &op : ops) {
        std::uint64_t literal;
        if (!r.fixed(1, literal))
          return std::nullopt;
        op.literal = literal != 0;
        if (op.literal ? !r.vbr(8, op.value) : !r.fixed(3, op.encoding))
          return std::nullopt;
        if (!op.literal && (op.encoding == kFixed || op.encoding == kVbr) && !r.vbr(5, op.value))
          return std::nullopt;
      }
      abbrevs.push_back(std::move(ops));
      continue;
    }
    if (id == kUnabbrevRecord) {
      std::uint64_t code, count, ignored;
      if (!r.vbr(6, code) || !r.vbr(6, count) || count > 64)
        return std::nullopt;
      for (std::uint64_t i = 0; i < count; ++i)
        if (!r.vbr(6, ignored))
          return std::nullopt;
      continue;
    }
    if (id - 4 >= abbrevs.size())
      return std::nullopt;
    std::optional<std::uint64_t> code;
    for (const AbbrevOp &op : abbrevs[id - 4]) {
      std::uint64_t value = op.value; // a literal's
      if (op.literal) {
        // nothing to read
      } else if (op.encoding == kFixed) {
        if (!r.fixed(static_cast<unsigned>(op.value), value))
          return std::nullopt;
      } else if (op.encoding == kVbr) {
        if (op.value > 32 || !r.vbr(static_cast<unsigned>(op.value), value))
          return std::nullopt;
      } else if (op.encoding == kBlob) {
        std::uint64_t length;
        if (!code || !r.vbr(6, length))
          return std::nullopt;
        r.align32();
        if (*code != kBlobRecordCode)
          return std::nullopt;
        return std::make_pair(std::uint64_t{r.bytePosition()}, length);
      } else {
        return std::nullopt; // arrays, char6: not in the blocks we read
      }
      if (!code)
        code = value;
    }
  }
}

// The blob of the block whose body starts at `body` (`size` bytes): its
// position in the file and length, checked against the block's end.
std::optional<std::pair<std::uint64_t, std::uint64_t>>
blobOfBlock(const ByteReader &readAt, std::uint64_t body, std::uint64_t size, unsigned width) {
  const auto prefix = readAt(body, kBlockPrefix);
  if (!prefix)
    return std::nullopt;
  const auto span = blobSpan(*prefix, width);
  if (!span || span->first > size || span->second > size - span->first)
    return std::nullopt;
  return std::make_pair(body + span->first, span->second);
}

} // namespace

std::optional<std::string> bitcodeTriple(const ByteReader &readAt) {
  const auto head = readAt(0, 20);
  if (!head || head->size() < 4)
    return std::nullopt;
  std::uint64_t start = 0, end = UINT64_MAX;
  if (head->substr(0, 4) == std::string_view("\xde\xc0\x17\x0b", 4)) {
    // The wrapper header: magic, version, offset, size, CPU type.
    if (head->size() < 20)
      return std::nullopt;
    start = le32(*head, 8);
    end = start + le32(*head, 12);
  }
  const auto magic = readAt(start, 4);
  if (!magic || *magic != std::string_view("BC\xc0\xde", 4))
    return std::nullopt;

  std::optional<std::pair<std::uint64_t, std::uint64_t>> symtab, strtab;
  for (std::uint64_t pos = start + 4; pos < end && !(symtab && strtab);) {
    const auto bytes = readAt(pos, 16);
    if (!bytes)
      return std::nullopt;
    BitReader r(*bytes);
    std::uint64_t id, blockId, width, words;
    if (!r.fixed(2, id) || id != kEnterSubblock)
      break; // the end of the stream (or the wrapper's padding)
    if (!r.vbr(8, blockId) || !r.vbr(4, width) || width < 2 || width > 32)
      return std::nullopt;
    r.align32();
    if (!r.fixed(32, words))
      return std::nullopt;
    const std::uint64_t body = pos + r.bytePosition(), size = words * 4;
    if (blockId == kSymtabBlockId && !symtab)
      symtab = blobOfBlock(readAt, body, size, static_cast<unsigned>(width));
    else if (blockId == kStrtabBlockId && symtab && !strtab)
      strtab = blobOfBlock(readAt, body, size, static_cast<unsigned>(width));
    pos = body + size;
  }
  if (!symtab || !strtab || symtab->second < kHeaderSize)
    return std::nullopt;
  const auto header = readAt(symtab->first, kHeaderSize);
  if (!header || header->size() < kHeaderSize || le32(*header, 0) != kSymtabVersion)
    return std::nullopt;
  const std::uint64_t offset = le32(*header, kTripleAt), size = le32(*header, kTripleAt + 4);
  if (size == 0 || size > kMaxTriple || offset > strtab->second || size > strtab->second - offset)
    return std::nullopt;
  auto triple = readAt(strtab->first + offset, static_cast<std::size_t>(size));
  if (!triple || triple->size() != size)
    return std::nullopt;
  return triple;
}

std::optional<ElfTarget> elfTargetOfTriple(std::string_view triple) {
  const std::vector<std::string_view> parts = splitAt(triple, '-');
  // Linux or bare metal: OS ABI 0 (ELFOSABI_NONE), as LLVM writes it there.
  bool knownSystem = false, x32 = false, ilp32 = false;
  for (std::size_t i = 1; i < parts.size(); ++i) {
    knownSystem = knownSystem || parts[i].starts_with("linux") || parts[i] == "none";
    x32 = x32 || parts[i].ends_with("x32");
    ilp32 = ilp32 || parts[i].find("ilp32") != std::string_view::npos;
  }
  if (!knownSystem)
    return std::nullopt;
  const std::string_view arch = parts[0];
  ElfTarget t;
  t.data = 1; // ELFDATA2LSB
  if (arch == "x86_64" || arch == "amd64") {
    t.elfClass = x32 ? 1 : 2;
    t.machine = 62; // EM_X86_64
  } else if (arch.size() == 4 && arch[0] == 'i' && arch[1] >= '3' && arch[1] <= '6' &&
             arch.substr(2) == "86") {
    t.elfClass = 1;
    t.machine = 3; // EM_386
  } else if ((arch == "aarch64" || arch == "arm64" || arch == "aarch64_be") && !ilp32) {
    t.elfClass = 2;
    t.data = arch == "aarch64_be" ? 2 : 1;
    t.machine = 183; // EM_AARCH64
  } else {
    return std::nullopt;
  }
  return t;
}

} // namespace alea::wrapper
