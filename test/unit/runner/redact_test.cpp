// Secret-looking environment variables are recorded redacted: the name
// patterns (defaults, case-insensitive, plus the campaign's redact_env), the
// recorded entries, and the campaign file's env values in the recorded text.
#include "alea/runner/config.hpp"
#include "alea/runner/redact.hpp"

#include <gtest/gtest.h>

using namespace alea::runner;

TEST(Redact, DefaultPatternsIgnoreCase) {
  for (const char *name : {"GITHUB_TOKEN", "github_token", "MY_SECRET_THING", "DB_PASSWORD",
                           "PGPASSWD", "API_KEY", "ssh_key", "GOOGLE_APPLICATION_CREDENTIALS",
                           "AWS_ACCESS_KEY_ID", "aws_region", "SSH_AUTH_SOCK"})
    EXPECT_TRUE(looksSecret(name, {})) << name;
  for (const char *name : {"PATH", "HOME", "KEYBOARD", "KEY_MAP", "TOKENIZERS", "CC", "LANG"})
    EXPECT_EQ(looksSecret(name, {}), std::string(name) == "TOKENIZERS") << name;
}

TEST(Redact, CampaignPatternsExtendTheDefaults) {
  EXPECT_FALSE(looksSecret("INTERNAL_URL", {}));
  EXPECT_TRUE(looksSecret("INTERNAL_URL", {"INTERNAL_*"}));
  EXPECT_TRUE(looksSecret("license_server", {"LICENSE_?ERVER"}));
}

TEST(Redact, OnlyTheValueOfASecretEntryIsReplaced) {
  EXPECT_EQ(redactEnvironmentEntry("GITHUB_TOKEN=ghp_abc=def", {}), "GITHUB_TOKEN=<redacted>");
  EXPECT_EQ(redactEnvironmentEntry("PATH=/usr/bin:/bin", {}), "PATH=/usr/bin:/bin");
  EXPECT_EQ(redactEnvironmentEntry("NO_EQUALS_TOKEN", {}), "NO_EQUALS_TOKEN");
  EXPECT_EQ(redactEnvironmentEntry("EMPTY_SECRET=", {}), "EMPTY_SECRET=<redacted>");
}

TEST(Redact, RedactEnvIsReadFromTheCampaignWithPositionsOnErrors) {
  const std::string tail = "[[system]]\nname = \"a\"\nbuild = [\"true\"]\n"
                           "[[benchmark]]\nname = \"b\"\ncommand = [\"true\"]\n";
  auto ok =
      parseCampaignText("[campaign]\nredact_env = [\"INTERNAL_*\", \"X\"]\n" + tail, "c.toml");
  ASSERT_TRUE(ok.ok()) << ok.error();
  EXPECT_EQ(ok->redactEnv, (std::vector<std::string>{"INTERNAL_*", "X"}));
  auto bad = parseCampaignText("[campaign]\nredact_env = [\"A=B\"]\n" + tail, "c.toml");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error(), "c.toml:2:15: expected a variable name pattern (shell wildcards * ? "
                         "[...], no '=')");
  auto notList = parseCampaignText("[campaign]\nredact_env = \"A\"\n" + tail, "c.toml");
  ASSERT_FALSE(notList.ok());
  EXPECT_NE(notList.error().find("c.toml:2:14: expected redact_env = ["), std::string::npos)
      << notList.error();
}

TEST(Redact, TheRecordedCampaignTextHidesSecretEnvValuesOnly) {
  const std::string text = "[campaign]\nredact_env = [\"INTERNAL_*\"]\n"
                           "[[system]]\nname = \"a\"\nbuild = [\"true\"]\n"
                           "env = { CC = \"cc\", API_TOKEN = \"tok-123\", note = \"é\" }\n"
                           "[[benchmark]]\nname = \"b\"\ncommand = [\"true\"]\n"
                           "[benchmark.env]\nDB_PASSWORD = '''multi\nline'''\n"
                           "INTERNAL_URL = \"http://x\"\nLANG = \"C\"\n";
  auto cfg = parseCampaignText(text, "c.toml");
  ASSERT_TRUE(cfg.ok()) << cfg.error();
  EXPECT_EQ(recordedCampaignText(*cfg),
            "[campaign]\nredact_env = [\"INTERNAL_*\"]\n"
            "[[system]]\nname = \"a\"\nbuild = [\"true\"]\n"
            "env = { CC = \"cc\", API_TOKEN = \"<redacted>\", note = \"é\" }\n"
            "[[benchmark]]\nname = \"b\"\ncommand = [\"true\"]\n"
            "[benchmark.env]\nDB_PASSWORD = \"<redacted>\"\n"
            "INTERNAL_URL = \"<redacted>\"\nLANG = \"C\"\n");
  // The redacted text is still a campaign file with the same structure.
  auto again = parseCampaignText(recordedCampaignText(*cfg), "c.toml");
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(again->benchmarks[0].env.at("LANG"), "C");
}

TEST(Redact, UnicodeBeforeASecretValueOnTheSameLineIsCountedInCodePoints) {
  const std::string text = "[[system]]\nname = \"a\"\nbuild = [\"true\"]\n"
                           "env = { \"ÄÖÜ\" = \"ü\", MY_TOKEN = \"s3cr3t\" }\n"
                           "[[benchmark]]\nname = \"b\"\ncommand = [\"true\"]\n";
  auto cfg = parseCampaignText(text, "c.toml");
  ASSERT_TRUE(cfg.ok()) << cfg.error();
  std::string recorded = recordedCampaignText(*cfg);
  EXPECT_EQ(recorded.find("s3cr3t"), std::string::npos) << recorded;
  EXPECT_NE(recorded.find("env = { \"ÄÖÜ\" = \"ü\", MY_TOKEN = \"<redacted>\" }"),
            std::string::npos)
      << recorded;
}
