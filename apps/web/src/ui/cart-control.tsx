import { addToCart, removeFromCart, setCartQuantity, useCartQuantity, type CartItem } from '../lib/cart.ts';
import { QuantityControl } from './quantity-control.tsx';

interface CartControlProps {
  game: CartItem['game'];
  /** The look of the Add to cart button where it is used. */
  className: string | undefined;
  disabled?: boolean;
  /** Where several games are listed, the button's name also carries the title (read out, not shown). */
  nameWithTitle?: boolean;
}

/** 'Add to cart', or once the game is in the cart the quantity control, where 0 removes it (SPEC §2). */
export function CartControl({ game, className, disabled = false, nameWithTitle = false }: CartControlProps) {
  const quantity = useCartQuantity(game._id);
  if (quantity > 0 && !disabled) {
    return (
      <QuantityControl
        label={game.title}
        value={quantity}
        min={0}
        onChange={(next) => setCartQuantity(game._id, next)}
        onRemove={() => removeFromCart(game._id)}
      />
    );
  }
  return (
    <button type="button" className={className} disabled={disabled} onClick={() => addToCart(game)}>
      Add to cart
      {nameWithTitle && <span className="visually-hidden">: {game.title}</span>}
    </button>
  );
}
