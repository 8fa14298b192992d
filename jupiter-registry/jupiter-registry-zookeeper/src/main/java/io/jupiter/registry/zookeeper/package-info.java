/**
 * ZooKeeper registry (scheme {@code zookeeper}) through Apache Curator, with Jupiter 1.3.1's node layout, so 1.3.1
 * and this implementation find each other on one ZooKeeper. Optional digest credentials protect the nodes we create
 * with an ACL: {@link io.jupiter.registry.zookeeper.ZookeeperRegistryFactory}.
 */
package io.jupiter.registry.zookeeper;
