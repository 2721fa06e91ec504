import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { network } from "hardhat";
import StoreModule from "../ignition/modules/Store.js";

describe("Store, deployed by Ignition", async () => {
  const { viem, ignition } = await network.getOrCreate();
  const publicClient = await viem.getPublicClient();
  const [wallet] = await viem.getWalletClients();
  const { store } = await ignition.deploy(StoreModule);

  it("holds the value the module set", async () => {
    assert.equal(await store.read.value(), 7n);
  });

  it("is written to and emits Stored", async () => {
    const hash = await store.write.set([9n]);
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, "success");
    const [event] = await store.getEvents.Stored({}, { blockHash: receipt.blockHash });
    assert.deepEqual([event.args.who.toLowerCase(), event.args.value], [wallet.account.address.toLowerCase(), 9n]);
    assert.equal(await store.read.value(), 9n);
  });

  it("sends as an impersonated account, whose key no one here holds", async () => {
    const whale = "0x5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a5a";
    // Hardhat signs for the accounts it is given and refuses any other sender: the node's own accounts then.
    const { viem: remote, provider } = await network.getOrCreate("mmnodeRemote");
    await provider.request({ method: "hardhat_setBalance", params: [whale, "0xde0b6b3a7640000"] });
    assert.equal(await provider.request({ method: "hardhat_impersonateAccount", params: [whale] }), true);
    const impersonated = await remote.getWalletClient(whale);
    const hash = await impersonated.writeContract({ address: store.address, abi: store.abi, functionName: "set", args: [11n] });
    const receipt = await publicClient.waitForTransactionReceipt({ hash });
    assert.deepEqual([receipt.status, receipt.from], ["success", whale]);
    assert.equal(await store.read.value(), 11n);
  });

  it("refuses a reverting call with the reason string", async () => {
    await assert.rejects(store.simulate.set([13n]), /unlucky number/);
  });
});
