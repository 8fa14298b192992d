/** Load balancing choices for client proxies. */
package io.jupiter.rpc.balance;
