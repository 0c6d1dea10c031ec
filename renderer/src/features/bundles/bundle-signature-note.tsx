import type { BundleSignature } from '../../../../shared/model/bundle.js';
import { ServerText } from '../../common/server-text.js';

/** The signature state, first and prominent: who vouches for this file, or that nobody does. */
export function BundleSignatureNote({ signature }: { signature: BundleSignature }) {
  if (signature.state === 'invalid') {
    return (
      <div className="bundle-signature bundle-signature--invalid" role="alert">
        <strong>Invalid signature:</strong> <ServerText text={signature.reason} />. This bundle cannot be
        installed.
      </div>
    );
  }
  if (signature.state === 'unsigned') {
    return (
      <div className="bundle-signature bundle-signature--unsigned">
        <strong>Not signed.</strong> Nobody vouches for who made this file: install it only if you trust where
        it came from.
      </div>
    );
  }
  const until = signature.validTo.slice(0, 10);
  return (
    <div className={`bundle-signature bundle-signature--${signature.trusted ? 'trusted' : 'untrusted'}`}>
      <strong>
        Signed by <ServerText text={signature.publisher} />
      </strong>
      {signature.trusted
        ? ', a certificate this computer trusts.'
        : `, but this computer does not trust its certificate${signature.selfSigned ? ' (it is self-signed)' : ` (issued by ${signature.issuer})`}.`}{' '}
      <span className="muted">
        Valid until {until}; fingerprint <span className="mono">{signature.fingerprint.slice(0, 16)}…</span>
      </span>
    </div>
  );
}
