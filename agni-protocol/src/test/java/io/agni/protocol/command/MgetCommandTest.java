package io.agni.protocol.command;

import io.agni.api.AgniStore;
import io.agni.protocol.RespArgs;
import io.agni.protocol.RespWriter;
import io.agni.store.OffHeapStore;
import org.agrona.concurrent.CachedEpochClock;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * MGET is the store's atomic {@code getAll} (one instant for all its keys, as the embedded store's call), not one
 * read per key; its values are framed behind headers it writes over the room it left for them.
 */
class MgetCommandTest
{
    private final OffHeapStore offHeapStore = OffHeapStore.builder().shards(4).maxMemory(1L << 24).build();
    private final List<String> calls = new ArrayList<>();
    private final AgniStore recorded = (AgniStore)Proxy.newProxyInstance(
        AgniStore.class.getClassLoader(), new Class<?>[] {AgniStore.class}, (proxy, method, args) ->
        {
            calls.add(signature(method));
            try
            {
                return method.invoke(offHeapStore, args);
            }
            catch (final InvocationTargetException ex)
            {
                throw ex.getCause();
            }
        });
    private final CommandProcessor processor =
        new CommandProcessor(recorded, new LocalServerContext(null, 0), new CachedEpochClock());
    private final Session session = new Session(1, "127.0.0.1:1", "127.0.0.1:2", 0);

    @AfterEach
    void close()
    {
        offHeapStore.close();
    }

    @Test
    void mgetReadsAllItsKeysWithOneCallOfTheStoresGetAll()
    {
        offHeapStore.set(bytes("a"), bytes("1"));
        offHeapStore.set(bytes("c"), bytes("333"));

        final String reply = reply("MGET", "a", "b", "c", "a");

        assertEquals("*4\r\n$1\r\n1\r\n$-1\r\n$3\r\n333\r\n$1\r\n1\r\n", reply);
        assertEquals(List.of("getAll(DirectBuffer,int[],int[],int,MutableDirectBuffer,int,int[])"), calls);
    }

    @Test
    void mgetFramesValuesOfEveryLengthAndEmptyOnes()
    {
        final StringBuilder expected = new StringBuilder();
        final String[] command = new String[41];
        command[0] = "MGET";
        for (int i = 0; i < 40; i++)
        {
            final String value = "v".repeat(i * 37);
            offHeapStore.set(bytes("k" + i), bytes(value));
            command[1 + i] = i % 7 == 3 ? "missing" + i : "k" + i;
            expected.append(i % 7 == 3 ? "$-1\r\n" : "$" + value.length() + "\r\n" + value + "\r\n");
        }

        assertEquals("*40\r\n" + expected, reply(command));
    }

    private String reply(final String... args)
    {
        final RespWriter out = new RespWriter(64);
        processor.execute(session, RespArgs.of(args), out);
        final byte[] bytes = new byte[out.position()];
        out.buffer().getBytes(0, bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    private static String signature(final Method method)
    {
        return method.getName() + Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName)
            .collect(Collectors.joining(",", "(", ")"));
    }

    private static byte[] bytes(final String text)
    {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }
}
