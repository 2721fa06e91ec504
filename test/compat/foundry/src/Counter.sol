// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

interface Vm {
    function startBroadcast() external;
    function stopBroadcast() external;
    function envAddress(string calldata name) external view returns (address);
}

Vm constant vm = Vm(address(uint160(uint256(keccak256("hevm cheat code")))));

contract Counter {
    uint256 public count;
    uint256 public randao;
    event Bumped(uint256 count);

    function bump() external {
        randao = block.prevrandao;
        count += 1;
        emit Bumped(count);
    }
}
