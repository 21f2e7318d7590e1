// Secrets are recorded redacted (redact.hpp, docs/campaign.md "Secrets"):
// the name rule (defaults, case ignored, components, the campaign's
// redact_env), environment entries, every text rule (URL passwords, named
// values, curl's -u, token shapes, learned values), what must stay as it is
// (numbers, paths, ordinary words), idempotence, and the campaign file's text
// as the store records it.
#include "alea/config/config.hpp"
#include "alea/config/redact.hpp"

#include <gtest/gtest.h>

using namespace alea::runner;

TEST(Redact, DefaultNamePatternsIgnoreCase) {
  for (const char *name :
       {"GITHUB_TOKEN", "github_token", "MY_SECRET_THING", "DB_PASSWORD", "PGPASSWD", "API_KEY",
        "ssh_key", "GOOGLE_APPLICATION_CREDENTIALS", "AWS_ACCESS_KEY_ID", "aws_region",
        "SSH_AUTH_SOCK", "TOKENIZERS", "GPG_PASSPHRASE", "OPENAI_APIKEY", "PROXY_AUTHORIZATION",
        "SESSION_COOKIE"})
    EXPECT_TRUE(looksSecret(name, {})) << name;
  for (const char *name : {"PATH", "HOME", "KEYBOARD", "KEY_MAP", "CC", "LANG", "PWD", "OLDPWD"})
    EXPECT_FALSE(looksSecret(name, {})) << name;
}

// Issue 18: MYSQL_PWD, NPM_AUTH and GH_PAT were recorded verbatim.
TEST(Redact, NameComponentsPwdPassPatAuthAndKeyAfterTheFirst) {
  for (const char *name : {"MYSQL_PWD", "NPM_AUTH", "GH_PAT", "SMTP_PASS", "npm_config__auth",
                           "NODE_AUTH_TOKEN", "AZURE_DEVOPS_EXT_PAT", "SIGNING_KEY", "api-key",
                           "--password", "--db-pass", "--api-key", "x.auth.y"})
    EXPECT_TRUE(looksSecret(name, {})) << name;
  // PAT is not PATH, AUTH not AUTHOR or XAUTHORITY, PASS not ASKPASS,
  // PWD alone is the shell's working directory, KEY first is no key.
  for (const char *name :
       {"LD_LIBRARY_PATH", "MANPATH", "PATCH_LEVEL", "XAUTHORITY", "GIT_AUTHOR_NAME", "GIT_ASKPASS",
        "PASSENGER_ROOT", "KEY_FILE", "--key", "--keep-going", "PWD", "--pwd"})
    EXPECT_FALSE(looksSecret(name, {})) << name;
}

TEST(Redact, CampaignPatternsExtendTheDefaults) {
  EXPECT_FALSE(looksSecret("INTERNAL_URL", {}));
  EXPECT_TRUE(looksSecret("INTERNAL_URL", {"INTERNAL_*"}));
  EXPECT_TRUE(looksSecret("license_server", {"LICENSE_?ERVER"}));
  EXPECT_TRUE(Redactor({"INTERNAL_*"}).secretName("internal_url"));
}

TEST(Redact, AnEntryKeepsItsNameAndHidesASecretValue) {
  const Redactor r;
  EXPECT_EQ(r.entry("GITHUB_TOKEN=ghp_abc=def"), "GITHUB_TOKEN=<redacted>");
  EXPECT_EQ(r.entry("PATH=/usr/bin:/bin"), "PATH=/usr/bin:/bin");
  EXPECT_EQ(r.entry("NO_EQUALS_TOKEN"), "NO_EQUALS_TOKEN");
  EXPECT_EQ(r.entry("EMPTY_SECRET="), "EMPTY_SECRET=<redacted>");
  // The whole value, over several lines and spaces.
  EXPECT_EQ(r.entry("SSH_PRIVATE_KEY=-----BEGIN KEY-----\nAAAA==\n-----END KEY-----"),
            "SSH_PRIVATE_KEY=<redacted>");
  EXPECT_EQ(r.entry("DB_PASSWORD=two words"), "DB_PASSWORD=<redacted>");
}

// Issue 18: DATABASE_URL, REDIS_URL and HTTPS_PROXY were recorded verbatim.
TEST(Redact, TheValueOfAnyEntryHidesAUrlPassword) {
  const Redactor r;
  EXPECT_EQ(r.entry("DATABASE_URL=postgres://user:S3cret@h/db"),
            "DATABASE_URL=postgres://user:<redacted>@h/db");
  EXPECT_EQ(r.entry("REDIS_URL=redis://:pw-REDIS-9@cache:6379/0"),
            "REDIS_URL=redis://:<redacted>@cache:6379/0");
  EXPECT_EQ(r.entry("HTTPS_PROXY=http://proxyuser:Pr0xy@proxy.example:3128"),
            "HTTPS_PROXY=http://proxyuser:<redacted>@proxy.example:3128");
  EXPECT_EQ(r.entry("HTTP_PROXY=http://proxy.example:3128"),
            "HTTP_PROXY=http://proxy.example:3128");
}

TEST(Redact, UrlPasswordsAnywhereInAText) {
  const Redactor r;
  EXPECT_EQ(r.text("clone https://x-access-token:abc123@github.com/o/r.git done"),
            "clone https://x-access-token:<redacted>@github.com/o/r.git done");
  // An '@' in the password: the host is after the last one.
  EXPECT_EQ(r.text("mysql://root:p@ss@db/x"), "mysql://root:<redacted>@db/x");
  EXPECT_EQ(r.text("\"amqp://u:v@q\""), "\"amqp://u:<redacted>@q\"");
  // A user name alone, and a port, are kept.
  EXPECT_EQ(r.text("ssh://git@github.com:22/o/r"), "ssh://git@github.com:22/o/r");
  EXPECT_EQ(r.text("http://host:8080/a@b"), "http://host:8080/a@b");
}

// Issue 18: `--password=…` and `-u admin:…` in a build command were recorded.
TEST(Redact, OptionsAssignmentsHeadersAndKeysNamedSecret) {
  const Redactor r;
  EXPECT_EQ(r.text("mysqldump --password=Pw-1 db"), "mysqldump --password=<redacted> db");
  EXPECT_EQ(r.text("tool --password Pw-2 --verbose"), "tool --password <redacted> --verbose");
  EXPECT_EQ(r.text("tool --token=\"a b\" x"), "tool --token=<redacted> x");
  EXPECT_EQ(r.text("tool --api-key 'k e y' x"), "tool --api-key <redacted> x");
  // An option that takes no value keeps the next one.
  EXPECT_EQ(r.text("tool --no-password --verbose"), "tool --no-password --verbose");
  EXPECT_EQ(r.text("export GH_PAT=abc; MYSQL_PWD=def mysql"),
            "export GH_PAT=<redacted>; MYSQL_PWD=<redacted> mysql");
  EXPECT_EQ(r.text("java -Djavax.net.ssl.keyStorePassword=ks1 -jar x"),
            "java -Djavax.net.ssl.keyStorePassword=<redacted> -jar x");
  EXPECT_EQ(r.text("GET /api?access_token=t0k&page=2"), "GET /api?access_token=<redacted>&page=2");
  EXPECT_EQ(r.text("curl -H 'Authorization: Bearer eyJhbGci.x.y' u"),
            "curl -H 'Authorization: Bearer <redacted>' u");
  EXPECT_EQ(r.text("Proxy-Authorization: Basic dXNlcjpwdw=="),
            "Proxy-Authorization: Basic <redacted>");
  EXPECT_EQ(r.text("-H \"X-Api-Key: k123\""), "-H \"X-Api-Key: <redacted>\"");
  EXPECT_EQ(r.text("password: hunter2\nuser: bob"), "password: <redacted>\nuser: bob");
  EXPECT_EQ(r.text("{\"token\":\"abc\",\"n\":1}"), "{\"token\":<redacted>,\"n\":1}");
}

TEST(Redact, CurlUserPasswords) {
  const Redactor r;
  EXPECT_EQ(r.text("curl -u admin:Adm1n https://h"), "curl -u admin:<redacted> https://h");
  EXPECT_EQ(r.text("curl -uadmin:Adm1n https://h"), "curl -uadmin:<redacted> https://h");
  EXPECT_EQ(r.text("curl --user=admin:Adm1n h"), "curl --user=admin:<redacted> h");
  EXPECT_EQ(r.text("curl --user 'admin:a b' h"), "curl --user 'admin:<redacted>' h");
  EXPECT_EQ(r.text("curl -U p:q --proxy-user p:q h"),
            "curl -U p:<redacted> --proxy-user p:<redacted> h");
  // No colon: a user name (or another tool's -u), kept.
  EXPECT_EQ(r.text("ps -u root; ld -undefined dynamic_lookup"),
            "ps -u root; ld -undefined dynamic_lookup");
}

TEST(Redact, AnArgvHidesTheElementAfterASecretOption) {
  const Redactor r;
  EXPECT_EQ(r.argv({"mysql", "--password", "pw", "-u", "admin:x", "--user", "bob", "db"}),
            (std::vector<std::string>{"mysql", "--password", "<redacted>", "-u", "admin:<redacted>",
                                      "--user", "bob", "db"}));
  // An option without a value, and ordinary options, keep what follows.
  EXPECT_EQ(r.argv({"tool", "--no-password", "--verbose", "-o", "out", "--token=t"}),
            (std::vector<std::string>{"tool", "--no-password", "--verbose", "-o", "out",
                                      "--token=<redacted>"}));
  Redactor learned;
  learned.learnArgv({"fetch", "--token", "tok-VALUE-66", "-u", "u:pw-VALUE-77"});
  EXPECT_EQ(learned.text("tok-VALUE-66 pw-VALUE-77"), "<redacted> <redacted>");
}

TEST(Redact, WellKnownTokenShapes) {
  const Redactor r;
  const std::string gh = "ghp_" + std::string(36, 'a');
  EXPECT_EQ(r.text("git clone https://" + gh + "@github.com/o/r"),
            "git clone https://<redacted>@github.com/o/r");
  EXPECT_EQ(r.text("github_pat_" + std::string(30, 'B') + " x"), "<redacted> x");
  EXPECT_EQ(r.text("glpat-" + std::string(20, 'c')), "<redacted>");
  EXPECT_EQ(r.text("xoxb-1234567890-abc"), "<redacted>");
  EXPECT_EQ(r.text("npm_" + std::string(36, '7')), "<redacted>");
  EXPECT_EQ(r.text("id AKIAABCDEFGHIJKLMNOP."), "id <redacted>.");
  // Too short, or inside a longer word: not a token.
  EXPECT_EQ(r.text("ghp_short npm_config_cache xAKIAABCDEFGHIJKLMNOP"),
            "ghp_short npm_config_cache xAKIAABCDEFGHIJKLMNOP");
}

TEST(Redact, LearnedValuesAreHiddenWhereverTheyAppear) {
  Redactor r;
  r.learnEntry("GH_PAT=pat-VALUE-0123");
  r.learnEntry("DATABASE_URL=postgres://u:db-PASS-4567@h/db");
  r.learnText("mysqldump --password=dump-PW-89ab db");
  r.learnEntry("SSH_PRIVATE_KEY=line-one-AAAA\nline-two-BBBB");
  EXPECT_EQ(r.text("+ echo pat-VALUE-0123 db-PASS-4567 dump-PW-89ab"),
            "+ echo <redacted> <redacted> <redacted>");
  EXPECT_EQ(r.text("got line-two-BBBB"), "got <redacted>");
  // Short values are not searched for: they would hide ordinary words.
  Redactor shortValues;
  shortValues.learnEntry("MY_TOKEN=true");
  shortValues.learnEntry("MY_SECRET=1234567");
  EXPECT_EQ(shortValues.text("true 1234567 12345678"), "true 1234567 12345678");
  // Nor what the redaction itself writes.
  Redactor marker;
  marker.learnEntry("MY_TOKEN=redacted");
  EXPECT_EQ(marker.text("GH_PAT=x"), "GH_PAT=<redacted>");
}

TEST(Redact, OrdinaryTextNumbersAndPathsStayAsTheyAre) {
  Redactor r;
  r.learnEntry("PATH=/usr/local/bin:/usr/bin");
  r.learnEntry("HOME=/home/user");
  for (const char *text :
       {"/usr/bin/cc -O2 -c x.c -o x.o", "time: 1.25e-3 s, 12:30:01, 0x7fff12345678",
        "make[1]: Leaving directory '/home/user/src'", "KEY_MAP=us PATH=/usr/bin", "a = b",
        "key: value", "http://example.com/path?q=1&r=2", "--user-agent=x --key=2 -k 3"})
    EXPECT_EQ(r.text(text), text) << text;
}

TEST(Redact, RedactionIsIdempotent) {
  Redactor r({"INTERNAL_*"});
  r.learnEntry("GH_PAT=pat-VALUE-0123");
  for (const char *text :
       {"postgres://user:S3cret@h/db", "curl -u admin:x -H 'Authorization: Bearer y' h",
        "--password a --token=\"b c\" GH_PAT=pat-VALUE-0123", "INTERNAL_X=1 echo pat-VALUE-0123",
        "{\"token\": \"x\"}", "password: a b c"}) {
    const std::string once = r.text(text);
    EXPECT_NE(once, text);
    EXPECT_EQ(r.text(once), once) << text;
    EXPECT_EQ(r.entry("X=" + once), "X=" + once) << text;
  }
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
  const Redactor redactor(cfg->redactEnv);
  EXPECT_EQ(recordedCampaignText(*cfg, redactor),
            "[campaign]\nredact_env = [\"INTERNAL_*\"]\n"
            "[[system]]\nname = \"a\"\nbuild = [\"true\"]\n"
            "env = { CC = \"cc\", API_TOKEN = \"<redacted>\", note = \"é\" }\n"
            "[[benchmark]]\nname = \"b\"\ncommand = [\"true\"]\n"
            "[benchmark.env]\nDB_PASSWORD = \"<redacted>\"\n"
            "INTERNAL_URL = \"<redacted>\"\nLANG = \"C\"\n");
  // The redacted text is still a campaign file with the same structure.
  auto again = parseCampaignText(recordedCampaignText(*cfg, redactor), "c.toml");
  ASSERT_TRUE(again.ok()) << again.error();
  EXPECT_EQ(again->benchmarks[0].env.at("LANG"), "C");
}

// Issue 18: commands and URLs anywhere in the file were recorded verbatim.
TEST(Redact, TheRecordedCampaignTextHidesSecretsInCommandsAndUrls) {
  const std::string text =
      "# a comment stays\n"
      "[[system]]\nname = \"a\"\n"
      "shell = \"mysqldump --password=Pw-77 db && curl -u admin:Adm-88 \\\"https://h\\\"\"\n"
      "env = { DATABASE_URL = 'postgres://user:S3cret@h/db', MYSQL_PWD = \"m-99\" }\n"
      "[[benchmark]]\nname = \"b\"\n"
      "command = [\"fetch\", \"--token\", \"tok-66\", \"https://u:p-55@h/x\"]\n";
  auto cfg = parseCampaignText(text, "c.toml");
  ASSERT_TRUE(cfg.ok()) << cfg.error();
  const std::string recorded = recordedCampaignText(*cfg, Redactor());
  for (const char *secret : {"Pw-77", "Adm-88", "S3cret", "m-99", "tok-66", "p-55"})
    EXPECT_EQ(recorded.find(secret), std::string::npos) << secret << " in\n" << recorded;
  EXPECT_NE(recorded.find("command = [\"fetch\", \"--token\", \"<redacted>\", "
                          "\"https://u:<redacted>@h/x\"]"),
            std::string::npos)
      << recorded;
  EXPECT_NE(recorded.find("# a comment stays\n"), std::string::npos);
  EXPECT_NE(recorded.find("shell = \"mysqldump --password=<redacted> db && curl -u "
                          "admin:<redacted> \\\"https://h\\\"\""),
            std::string::npos)
      << recorded;
  EXPECT_NE(recorded.find("DATABASE_URL = \"postgres://user:<redacted>@h/db\""), std::string::npos)
      << recorded;
  auto again = parseCampaignText(recorded, "c.toml");
  ASSERT_TRUE(again.ok()) << again.error() << "\n" << recorded;
  EXPECT_EQ(again->systems[0].env.at("MYSQL_PWD"), kRedactedValue);
}

TEST(Redact, UnicodeBeforeASecretValueOnTheSameLineIsCountedInCodePoints) {
  const std::string text = "[[system]]\nname = \"a\"\nbuild = [\"true\"]\n"
                           "env = { \"ÄÖÜ\" = \"ü\", MY_TOKEN = \"s3cr3t\" }\n"
                           "[[benchmark]]\nname = \"b\"\ncommand = [\"true\"]\n";
  auto cfg = parseCampaignText(text, "c.toml");
  ASSERT_TRUE(cfg.ok()) << cfg.error();
  std::string recorded = recordedCampaignText(*cfg, Redactor());
  EXPECT_EQ(recorded.find("s3cr3t"), std::string::npos) << recorded;
  EXPECT_NE(recorded.find("env = { \"ÄÖÜ\" = \"ü\", MY_TOKEN = \"<redacted>\" }"),
            std::string::npos)
      << recorded;
}
