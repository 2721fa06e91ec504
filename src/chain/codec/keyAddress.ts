/**
 * A private key's address through native secp256k1, for every key the node holds (the development
 * accounts, the wallet's, key files). The development accounts' addresses are derived when the node
 * starts: @ethereumjs/util's `privateToAddress` multiplies in JavaScript, about 60 ms of a start on code
 * not yet compiled (docs/operations.md "Start-up"), where the add-on takes microseconds.
 */
import secp256k1 from 'secp256k1';
import { keccak256 } from './keccak.ts';

/** The last 20 bytes of the Keccak-256 of the uncompressed public key (without its 0x04 prefix); throws for a key outside 1..n−1. */
export const addressOfPrivateKey = (privateKey: Uint8Array): Uint8Array =>
  keccak256(secp256k1.publicKeyCreate(privateKey, false).subarray(1)).subarray(12);
