package io.agni.net;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Skips tests of the {@code AgniStoreContract} by name, each with the reason it cannot pass against a remote
 * store. The contract's test methods are package-private in another package, so a subclass here cannot override
 * them with {@code @Disabled}; this condition disables them by name instead, and the reason shows in the report.
 * <pre>{@code
 * @RegisterExtension
 * static final ClientContractSkips SKIPS = new ClientContractSkips()
 *     .skip("setAllIfPresent*", "Redis has no MSET XX")
 *     .skipCase("incrementByFloatOfNonNumberThrowsAndLeavesTheValue", "\"inf\"", "strtold reads inf");
 * }</pre>
 */
final class ClientContractSkips implements ExecutionCondition
{
    private final List<Skip> skips = new ArrayList<>();

    private record Skip(String name, String displayName, String reason)
    {
        boolean matches(final String methodName, final String testDisplayName)
        {
            final boolean nameMatches = name.endsWith("*") ?
                methodName.startsWith(name.substring(0, name.length() - 1)) : methodName.equals(name);
            return nameMatches && (displayName == null || testDisplayName.contains(displayName));
        }
    }

    /**
     * Skips the test of that name (every case of a parameterized one), or every test whose name starts with a
     * prefix given as {@code prefix*}.
     *
     * @param name   the test method's name, or a prefix followed by {@code *}.
     * @param reason why it cannot pass against this store.
     * @return this.
     */
    ClientContractSkips skip(final String name, final String reason)
    {
        skips.add(new Skip(name, null, reason));
        return this;
    }

    /**
     * Skips several tests by name, for one reason.
     *
     * @param reason why they cannot pass against this store.
     * @param names  the test methods' names.
     * @return this.
     */
    ClientContractSkips skipAll(final String reason, final String... names)
    {
        for (final String name : names)
        {
            skip(name, reason);
        }
        return this;
    }

    /**
     * Skips the cases of a parameterized test whose display name contains a fragment.
     *
     * @param name        the test method's name.
     * @param displayName a fragment of the case's display name, as the test's name pattern prints it.
     * @param reason      why it cannot pass against this store.
     * @return this.
     */
    ClientContractSkips skipCase(final String name, final String displayName, final String reason)
    {
        skips.add(new Skip(name, displayName, reason));
        return this;
    }

    @Override
    public ConditionEvaluationResult evaluateExecutionCondition(final ExtensionContext context)
    {
        final Optional<Method> method = context.getTestMethod();
        if (method.isEmpty())
        {
            return ConditionEvaluationResult.enabled("not a test method");
        }
        final String name = method.get().getName();
        for (final Skip skip : skips)
        {
            if (skip.matches(name, context.getDisplayName()))
            {
                return ConditionEvaluationResult.disabled(
                    context.getDisplayName() + " skipped against a remote store: " + skip.reason());
            }
        }
        return ConditionEvaluationResult.enabled("runs against a remote store");
    }
}
