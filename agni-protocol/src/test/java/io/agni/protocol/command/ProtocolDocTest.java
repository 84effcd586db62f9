package io.agni.protocol.command;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * docs/protocol.md lists the commands agni serves; this test keeps that list and the {@link CommandTable} the same:
 * every command in the table has one row with its arity and flags, and every row is a command in the table.
 */
class ProtocolDocTest
{
    private static final Path DOC = Path.of("..", "docs", "protocol.md");
    private static final String BEGIN = "<!-- commands:begin -->";
    private static final String END = "<!-- commands:end -->";
    private static final Pattern ROW = Pattern.compile("^\\| `([A-Z]+)` \\| (-?\\d+) \\| ([a-z, -]*) \\|.*\\|$");

    @Test
    void docListsExactlyTheCommandsOfTheTableWithTheirArityAndFlags() throws IOException
    {
        final List<String> documented = documentedRows();
        final List<String> expected = new ArrayList<>();
        for (final Command command : CommandTable.standard().commands())
        {
            expected.add(row(command));
        }
        assertEquals(String.join("\n", expected), String.join("\n", documented),
            "docs/protocol.md's command table differs from CommandTable; the expected rows (name, arity, flags) are "
            + "on the left");
    }

    private static List<String> documentedRows() throws IOException
    {
        assertTrue(Files.exists(DOC), "missing " + DOC.toAbsolutePath());
        final String text = Files.readString(DOC, StandardCharsets.UTF_8);
        final int begin = text.indexOf(BEGIN);
        final int end = text.indexOf(END);
        assertTrue(begin >= 0 && end > begin, "docs/protocol.md needs the markers " + BEGIN + " and " + END);
        final List<String> rows = new ArrayList<>();
        for (final String line : text.substring(begin + BEGIN.length(), end).split("\n"))
        {
            final Matcher matcher = ROW.matcher(line.strip());
            if (matcher.matches())
            {
                rows.add(matcher.group(1) + " " + matcher.group(2) + " " + matcher.group(3).strip());
            }
        }
        return rows;
    }

    static String row(final Command command)
    {
        return command.name().toUpperCase(Locale.ROOT) + " " + command.arity() + " " + flags(command);
    }

    static String flags(final Command command)
    {
        final List<String> flags = new ArrayList<>();
        if (command.hasFlag(Command.FLAG_WRITE))
        {
            flags.add("write");
        }
        if (command.hasFlag(Command.FLAG_READONLY))
        {
            flags.add("readonly");
        }
        if (command.hasFlag(Command.FLAG_DENY_OOM))
        {
            flags.add("denyoom");
        }
        if (command.hasFlag(Command.FLAG_ADMIN))
        {
            flags.add("admin");
        }
        if (command.hasFlag(Command.FLAG_NO_AUTH))
        {
            flags.add("no-auth");
        }
        if (command.hasFlag(Command.FLAG_FAST))
        {
            flags.add("fast");
        }
        if (command.hasFlag(Command.FLAG_NO_MULTI))
        {
            flags.add("no-multi");
        }
        return flags.isEmpty() ? "-" : String.join(", ", flags);
    }
}
