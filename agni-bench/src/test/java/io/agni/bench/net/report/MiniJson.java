package io.agni.bench.net.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A strict little JSON parser for the tests (RFC 8259: no trailing commas, no comments, no NaN), so that the
 * results file is checked by something other than the code that wrote it.
 */
public final class MiniJson
{
    private final String text;
    private int pos;

    private MiniJson(final String text)
    {
        this.text = text;
    }

    public static Object parse(final String text)
    {
        final MiniJson parser = new MiniJson(text);
        final Object value = parser.value();
        parser.whitespace();
        if (parser.pos != text.length())
        {
            throw parser.error("trailing characters");
        }
        return value;
    }

    private Object value()
    {
        whitespace();
        if (pos >= text.length())
        {
            throw error("unexpected end");
        }
        final char c = text.charAt(pos);
        return switch (c)
        {
            case '{' -> object();
            case '[' -> array();
            case '"' -> string();
            case 't' -> literal("true", Boolean.TRUE);
            case 'f' -> literal("false", Boolean.FALSE);
            case 'n' -> literal("null", null);
            default -> number();
        };
    }

    private Map<String, Object> object()
    {
        final Map<String, Object> map = new LinkedHashMap<>();
        pos++;
        whitespace();
        if (peek() == '}')
        {
            pos++;
            return map;
        }
        while (true)
        {
            whitespace();
            final String key = string();
            whitespace();
            expect(':');
            if (map.put(key, value()) != null)
            {
                throw error("duplicate key " + key);
            }
            whitespace();
            if (peek() == ',')
            {
                pos++;
                continue;
            }
            expect('}');
            return map;
        }
    }

    private List<Object> array()
    {
        final List<Object> list = new ArrayList<>();
        pos++;
        whitespace();
        if (peek() == ']')
        {
            pos++;
            return list;
        }
        while (true)
        {
            list.add(value());
            whitespace();
            if (peek() == ',')
            {
                pos++;
                continue;
            }
            expect(']');
            return list;
        }
    }

    private String string()
    {
        expect('"');
        final StringBuilder out = new StringBuilder();
        while (true)
        {
            final char c = text.charAt(pos++);
            if (c == '"')
            {
                return out.toString();
            }
            if (c < 0x20)
            {
                throw error("control character in string");
            }
            if (c != '\\')
            {
                out.append(c);
                continue;
            }
            final char e = text.charAt(pos++);
            switch (e)
            {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' ->
                {
                    out.append((char)Integer.parseInt(text.substring(pos, pos + 4), 16));
                    pos += 4;
                }
                default -> throw error("bad escape \\" + e);
            }
        }
    }

    private Double number()
    {
        final int start = pos;
        while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0)
        {
            pos++;
        }
        final String number = text.substring(start, pos);
        if (!number.matches("-?(0|[1-9][0-9]*)(\\.[0-9]+)?([eE][+-]?[0-9]+)?"))
        {
            throw error("bad number '" + number + "'");
        }
        return Double.valueOf(number);
    }

    private Object literal(final String word, final Object value)
    {
        if (!text.startsWith(word, pos))
        {
            throw error("expected " + word);
        }
        pos += word.length();
        return value;
    }

    private void whitespace()
    {
        while (pos < text.length() && " \t\r\n".indexOf(text.charAt(pos)) >= 0)
        {
            pos++;
        }
    }

    private char peek()
    {
        if (pos >= text.length())
        {
            throw error("unexpected end");
        }
        return text.charAt(pos);
    }

    private void expect(final char c)
    {
        if (peek() != c)
        {
            throw error("expected '" + c + "'");
        }
        pos++;
    }

    private IllegalArgumentException error(final String what)
    {
        return new IllegalArgumentException(what + " at " + pos + ": " +
            text.substring(Math.max(0, pos - 20), Math.min(text.length(), pos + 20)));
    }
}
