package io.sluice.spi;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Name by name: what a file name, a piece of one and a base directory may be. */
class PathNamesTest {

    private static final String OPT = "some.option";

    @ParameterizedTest
    @ValueSource(
            strings = {
                "..",
                ".",
                "../x",
                "x/..",
                "a/b",
                "/abs",
                "a\\b",
                "\\",
                "a:b",
                ":",
                "C:",
                "",
                "nul\u0000",
                "tab\t",
                "new\nline",
                "cr\r",
                "del\u007F",
                "\u001B[31m",
                "\u0085next"
            })
    void rejectedNames(String name) {
        assertThatThrownBy(() -> PathNames.checkName(OPT, name))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Invalid '" + OPT + "' '" + PathNames.escape(name) + "': ");
    }

    @Test
    void namesLongerThan255BytesAreRejectedCountingUtf8() {
        assertThatCode(() -> PathNames.checkName(OPT, "x".repeat(255))).doesNotThrowAnyException();
        assertThatThrownBy(() -> PathNames.checkName(OPT, "x".repeat(256))).hasMessageContaining("256 bytes");
        // 128 two-byte characters: 128 chars, 256 bytes
        assertThatThrownBy(() -> PathNames.checkName(OPT, "ü".repeat(128))).hasMessageContaining("256 bytes");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "part",
                "my-prefix",
                ".hidden",
                "_SUCCESS",
                "...",
                "a b",
                "50%",
                "a#b?c",
                "ü日本語",
                "a=b",
                "x.csv",
                "-"
            })
    void acceptedNames(String name) {
        // a leading '.' or '_' is a valid name; whether it may hide a file is for the caller to decide
        assertThatCode(() -> PathNames.checkName(OPT, name)).doesNotThrowAnyException();
    }

    @Test
    void namePartsMayBeEmptyOrADotButNeverSplitTheName() {
        for (String ok : List.of("", ".", "..", ".csv", "part", "ü")) {
            assertThatCode(() -> PathNames.checkNamePart(OPT, ok)).as(ok).doesNotThrowAnyException();
        }
        for (String bad : List.of("../x", "/x", "x/", "a\\b", "a:b", "nul\u0000", "bell\u0007")) {
            assertThatThrownBy(() -> PathNames.checkNamePart(OPT, bad))
                    .as(bad)
                    .hasMessageStartingWith("Invalid '" + OPT + "' '" + PathNames.escape(bad) + "'");
        }
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/tmp/t/../orders",
                "file:///tmp/t/..",
                "hdfs://nn:8020/w/./t",
                "./t",
                "../t",
                "..",
                "C:\\data\\..\\x",
                "/tmp/nul\u0000",
                "t",
                "data/t",
                "file:t",
                "file:data/t"
            })
    void baseDirectoriesWithDotSegmentsOrControlCharactersAreRejected(String path) {
        assertThatThrownBy(() -> PathNames.checkBaseDirectory("path", path))
                .hasMessageStartingWith("Invalid 'path' '" + PathNames.escape(path) + "': ");
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "/tmp/t",
                "file:///tmp/t",
                "hdfs://nn:8020/w/t",
                "s3://bucket/a..b/.x/_y",
                "/tmp/a b/ü",
                "file:///tmp/%2E%2E",
                "/tmp/t/",
                "file:/tmp/t",
                "s3://bucket",
                "C:\\data\\x"
            })
    void ordinaryBaseDirectoriesAreAccepted(String path) {
        assertThatCode(() -> PathNames.checkBaseDirectory("path", path)).doesNotThrowAnyException();
    }

    @Test
    void messagesShowControlCharactersEscaped() {
        assertThat(PathNames.escape("a\u0000b\n")).isEqualTo("a\\u0000b\\u000A");
        assertThatThrownBy(() -> PathNames.checkName(OPT, "a\u0000"))
                .hasMessage("Invalid 'some.option' 'a\\u0000': must not contain control characters (found \\u0000)");
    }
}
