// A Hardhat 3 project on its defaults, with the node under test (MMNODE_URL) as two networks: one paying from a
// development account, which Hardhat signs for, and one whose accounts are the node's (eth_sendTransaction reaches
// the node, as sending from an impersonated account needs).
import hardhatIgnitionViem from "@nomicfoundation/hardhat-ignition-viem";
import hardhatNetworkHelpers from "@nomicfoundation/hardhat-network-helpers";
import hardhatNodeTestRunner from "@nomicfoundation/hardhat-node-test-runner";
import hardhatViem from "@nomicfoundation/hardhat-viem";

export default {
  plugins: [hardhatViem, hardhatIgnitionViem, hardhatNetworkHelpers, hardhatNodeTestRunner],
  networks: {
    mmnode: {
      type: "http",
      chainType: "l1",
      url: process.env.MMNODE_URL ?? "http://127.0.0.1:4444",
      accounts: ["0xc85ef7d79691fe79573b1a7064c19c1a9819ebdbd1faaab1a8ec92344438aaf4"],
    },
    mmnodeRemote: {
      type: "http",
      chainType: "l1",
      url: process.env.MMNODE_URL ?? "http://127.0.0.1:4444",
      accounts: "remote",
    },
  },
};
